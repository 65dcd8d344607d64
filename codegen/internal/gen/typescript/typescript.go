package typescript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

func emitTypeScript(m *ir.Model, out emit.Output) error {
	files := map[string]string{
		"limits.ts":  tsLimits(m),
		"errors.ts":  tsErrors(m),
		"methods.ts": tsMethods(m),
	}
	// index.ts re-exports every generated module, those of the Dispatch and Features
	// artifacts too (written by their own methods); it names them, nothing more.
	indexed := map[string]bool{RequestsFile: true, DispatchFile: true, ServicesFile: true}
	if m.Negotiation != nil {
		indexed[featuresFile] = true
	}
	for name, src := range tsTypeFiles(m) {
		if _, dup := files[name]; dup {
			return fmt.Errorf("typescript emitter: two outputs named %s", name)
		}
		files[name] = src
	}
	var idx bytes.Buffer
	names := make([]string, 0, len(files)+len(indexed))
	for n := range files {
		names = append(names, n)
	}
	for n := range indexed {
		if _, dup := files[n]; dup {
			return fmt.Errorf("typescript emitter: two outputs named %s", n)
		}
		names = append(names, n)
	}
	emit.SortStrings(names)
	var deps []any
	for _, n := range names {
		deps = append(deps, n)
	}
	idx.WriteString(emit.Header("//", emit.Fingerprint(true, deps...)))
	idx.WriteString("// Everything generated from schema/, re-exported.\n")
	for _, n := range names {
		fmt.Fprintf(&idx, "export * from \"./%s.js\";\n", strings.TrimSuffix(n, ".ts"))
	}
	// The strict-JSON scanner is hand-written SDK source (src/strictjson.ts); re-exported here
	// so the generated module stays the one import for schema work.
	idx.WriteString("export * from \"../strictjson.js\";\n")
	files["index.ts"] = idx.String()
	for name, src := range files {
		out[Dir+name] = []byte(src)
	}
	return nil
}

// tsStr quotes s as a JS string literal.
func tsStr(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func tsDoc(b *bytes.Buffer, indent, text string) {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "*/", "*\\/")), "\n")
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", indent, lines[0])
		return
	}
	fmt.Fprintf(b, "%s/**\n", indent)
	for _, l := range lines {
		fmt.Fprintf(b, "%s * %s\n", indent, l)
	}
	fmt.Fprintf(b, "%s */\n", indent)
}

func tsLimits(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Limits)))
	b.WriteString("// Limits of the wire (schema/limits.schema.json).\n\n")
	for _, l := range m.Limits {
		tsDoc(&b, "", fmt.Sprintf("%s (%s).", l.Description, l.Unit))
		fmt.Fprintf(&b, "export const %s = %d;\n", l.Name, l.Value)
	}
	return b.String()
}

func tsErrors(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Errors)))
	b.WriteString("// Error codes and the error registry (schema/errors.schema.json).\n\n")
	b.WriteString("/** Registered error codes by name. */\nexport const ErrorCode = {\n")
	for _, e := range m.Errors {
		tsDoc(&b, "  ", e.Meaning)
		fmt.Fprintf(&b, "  %s: %d,\n", emit.UpperSnake(e.Name), e.Code)
	}
	b.WriteString("} as const;\n\n/** A registered error code. */\nexport type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];\n\n")
	b.WriteString("/** The registry's message templates by situation; each {placeholder} is replaced by its value. */\nexport const ErrorMessage = {\n")
	for _, e := range m.Errors {
		for _, msg := range e.Messages {
			tsDoc(&b, "  ", fmt.Sprintf("%s, data %s: %s", e.Name, msg.Data, msg.Meaning))
			fmt.Fprintf(&b, "  %s: %s,\n", emit.UpperSnake(msg.Name), tsStr(msg.Template))
		}
	}
	b.WriteString("} as const;\n\n")
	b.WriteString(`/** One row of the error registry. */
export interface ErrorInfo {
  readonly code: number;
  readonly name: string;
  readonly meaning: string;
  readonly category: "protocol" | "host_service";
  readonly retryable: "no" | "maybe" | "yes";
  readonly retryHint: string;
  /** Name of the type of ` + "`data`" + `; "" when the error carries no data. */
  readonly dataType: string;
}

/** Every registered error, in schema order. */
export const ERROR_REGISTRY: readonly ErrorInfo[] = [
`)
	for _, e := range m.Errors {
		fmt.Fprintf(&b, "  {\n    code: %d,\n    name: %s,\n    meaning: %s,\n    category: %s,\n    retryable: %s,\n    retryHint: %s,\n    dataType: %s,\n  },\n",
			e.Code, tsStr(e.Name), tsStr(e.Meaning), tsStr(e.Category), tsStr(e.Retryable), tsStr(e.RetryHint), tsStr(e.Data))
	}
	b.WriteString("];\n\n/** The registry row of a code, or undefined. */\nexport function lookupError(code: number): ErrorInfo | undefined {\n  return ERROR_REGISTRY.find((e) => e.code === code);\n}\n")
	return b.String()
}

func tsMethods(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Methods)))
	b.WriteString(`// The method registry (schema/methods.json).

/** One row of the method registry. */
export interface MethodInfo {
  readonly name: string;
  readonly direction: "host_to_extension" | "extension_to_host" | "both";
  readonly kind: "request" | "notification";
  readonly versions: readonly string[];
  /** Negotiated feature that enables the method ("" = none). */
  readonly feature: string;
  /** Manifest contribution that enables the method ("" = none). */
  readonly contribution: string;
  readonly cancellable: readonly string[];
  readonly progress: readonly string[];
  readonly errors: readonly number[];
  /** API version -> params type name. */
  readonly params: Readonly<Record<string, string>>;
  /** API version -> result type name (requests). */
  readonly result: Readonly<Record<string, string>>;
  readonly description: string;
}

/** Method names. */
export const Method = {
`)
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "  %s: %s,\n", emit.UpperSnake(me.Name), tsStr(me.Name))
	}
	b.WriteString("} as const;\n\n/** Every method, by name, in schema order. */\nexport const METHODS: Readonly<Record<string, MethodInfo>> = {\n")
	list := func(s []string) string {
		q := make([]string, len(s))
		for i, x := range s {
			q[i] = tsStr(x)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	vm := func(vs []ir.VersionedType) string {
		var parts []string
		for _, v := range vs {
			for _, ver := range v.Versions {
				parts = append(parts, fmt.Sprintf("%s: %s", tsStr(ver), tsStr(v.Type)))
			}
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	for _, me := range m.Methods {
		codes := make([]string, len(me.Errors))
		for i, c := range me.Errors {
			codes[i] = fmt.Sprint(c)
		}
		fmt.Fprintf(&b, "  %s: {\n    name: %s,\n    direction: %s,\n    kind: %s,\n    versions: %s,\n    feature: %s,\n    contribution: %s,\n    cancellable: %s,\n    progress: %s,\n    errors: [%s],\n    params: %s,\n    result: %s,\n    description: %s,\n  },\n",
			tsStr(me.Name), tsStr(me.Name), tsStr(me.Direction), tsStr(me.Kind), list(me.Versions), tsStr(me.Feature), tsStr(me.Contribution), list(me.Cancellable), list(me.Progress), strings.Join(codes, ", "), vm(me.Params), vm(me.Result), tsStr(me.Description))
	}
	b.WriteString("};\n")
	return b.String()
}
