package python

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// ModelsFile re-exports the names of every module of the generated package
// (octet_extension._generated, one module per schema file) in one module.
const ModelsFile = GenDir + "_models.py"

// pyModule is the module of a schema file's stem (extension-methods -> extension_methods).
func pyModule(stem string) string { return strings.ReplaceAll(stem, "-", "_") }

const pyPrelude = `
# typing.TYPE_CHECKING without importing typing (~3 ms of every extension's start): mypy treats
# any name TYPE_CHECKING as true, so only type checkers read the typing imports.
TYPE_CHECKING = False
`

func emitPython(m *ir.Model, out emit.Output) error {
	exports := map[string][]string{} // module -> public runtime names, for _models.py
	typeExports := map[string][]string{}
	files := map[string]*bytes.Buffer{}
	start := func(mod, doc, imports string, parts ...any) *bytes.Buffer {
		b := &bytes.Buffer{}
		// The spec table shows no descriptions: its hash leaves them out.
		b.WriteString(emit.Header("#", emit.Fingerprint(mod != "specs", parts...)))
		b.WriteString("# ruff: noqa: E501\n")
		fmt.Fprintf(b, "\"\"\"%s\"\"\"\n\nfrom __future__ import annotations\n", doc)
		if imports != "" {
			b.WriteString("\n" + imports + "\n")
		}
		b.WriteString(pyPrelude)
		files[mod] = b
		return b
	}

	b := start("limits", "Wire limits (schema/limits.schema.json).", "", m.Limits)
	b.WriteString("if TYPE_CHECKING:\n    from typing import Final\n\n")
	pyLimits(b, m)
	for _, l := range m.Limits {
		exports["limits"] = append(exports["limits"], l.Name)
	}

	// Types per schema file: TypedDicts for type checkers, a validator per type.
	owner := map[string]string{}
	for _, f := range m.Files {
		for _, n := range f.Types {
			owner[n.Name] = pyModule(f.Stem)
		}
	}
	for _, f := range m.Files {
		mod := pyModule(f.Stem)
		if mod == "limits" && len(f.Types) == 0 {
			continue
		}
		if len(f.Types) == 0 && mod != "errors" {
			continue
		}
		doc := fmt.Sprintf("%s (schema/%s.schema.json): types and validators.", f.Title, f.Stem)
		parts := []any{f.Title, f.Types}
		if mod == "errors" {
			doc = "Error codes, the error registry (schema/errors.schema.json), and its types and validators."
			parts = append(parts, m.Errors)
		}
		b := start(mod, doc, "from .specs import validate", parts...)
		var tb bytes.Buffer // the types first: the typing imports are the names they use
		if mod == "errors" {
			tb.WriteString("\n")
			pyErrors(&tb, m)
			for _, e := range m.Errors {
				exports[mod] = append(exports[mod], "CODE_"+emit.UpperSnake(e.Name))
				for _, msg := range e.Messages {
					exports[mod] = append(exports[mod], "MESSAGE_"+emit.UpperSnake(msg.Name))
				}
			}
			exports[mod] = append(exports[mod], "ERROR_REGISTRY", "ErrorInfo")
		}
		pyTypes(&tb, f.Types)
		code := regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAll(tb.Bytes(), nil) // comments name no types
		var typing []string
		for _, w := range []string{"Any", "Final", "Literal", "NotRequired", "TypeAlias", "TypedDict"} {
			if regexp.MustCompile(`\b` + w + `\b`).Match(code) {
				typing = append(typing, w)
			}
		}
		b.WriteString("if TYPE_CHECKING:\n    from typing import " + strings.Join(typing, ", ") + "\n")
		refs := map[string][]string{}
		for _, r := range pyRefs(f.Types) {
			if o := owner[r]; o != "" && o != mod {
				refs[o] = append(refs[o], r)
			}
		}
		var mods []string
		for o := range refs {
			mods = append(mods, o)
		}
		emit.SortStrings(mods)
		for _, o := range mods {
			names := refs[o]
			emit.SortStrings(names)
			fmt.Fprintf(b, "\n    from .%s import %s", o, strings.Join(names, ", "))
		}
		b.WriteString("\n")
		b.Write(tb.Bytes())
		for _, n := range f.Types {
			exports[mod] = append(exports[mod], "validate_"+emit.Snake(n.Name))
			typeExports[mod] = append(typeExports[mod], n.Name)
		}
	}

	b = start("specs", "The compact spec of every schema type, interpreted by octet_extension._strict.", "from .._strict import check, register", m.Types)
	b.WriteString("if TYPE_CHECKING:\n    from typing import Any, Final\n")
	pyValidators(b, m)
	exports["specs"] = []string{"type_names", "validate"}

	b = start("methods", "The method registry (schema/methods.json).", "", m.Methods)
	b.WriteString("if TYPE_CHECKING:\n    from typing import Final\n")
	pyMethods(b, m)
	exports["methods"] = []string{"METHODS", "MethodInfo"}

	for mod, b := range files {
		if GenDir+mod+".py" == ModelsFile || GenDir+mod+".py" == FeaturesFile {
			return fmt.Errorf("python emitter: schema module %q would overwrite %s", mod, GenDir+mod+".py")
		}
		out[GenDir+mod+".py"] = b.Bytes()
	}

	// _models.py: every generated module's names in one module. Type checkers read them as
	// explicit imports (so mypy --strict sees them as exports); at run time each generated
	// module loads on the first use of one of its names (PEP 562 __getattr__), so a start
	// loads the five or so an extension needs and not all fifteen (each module costs a file
	// lookup, a read and an unmarshal: about 0.2 ms of every start, docs/benchmarks.md).
	var mb bytes.Buffer
	mb.WriteString(emit.Header("#", emit.Fingerprint(true, exports, typeExports)))
	mb.WriteString("# ruff: noqa: E501\n\"\"\"Wire limits, error codes, typed models and validators: the modules of this package\n")
	mb.WriteString("(one per schema file) and the strict-JSON checker (octet_extension._strict), re-exported\n")
	mb.WriteString("in one module; each generated module is imported on the first use of one of its names.\"\"\"\n")
	mb.WriteString("\nfrom __future__ import annotations\n")
	mb.WriteString("\nfrom .._strict import MAX_SAFE_INTEGER as MAX_SAFE_INTEGER\nfrom .._strict import NESTING as NESTING\nfrom .._strict import StrictJSONError as StrictJSONError\nfrom .._strict import nesting_offset as nesting_offset\nfrom .._strict import parse_strict as parse_strict\n")
	var mods []string
	for mod := range exports {
		mods = append(mods, mod)
	}
	emit.SortStrings(mods)
	mb.WriteString(pyPrelude + "if TYPE_CHECKING:\n    from typing import Any\n\n")
	for _, mod := range mods {
		names := exports[mod]
		emit.SortStrings(names)
		for _, n := range names {
			fmt.Fprintf(&mb, "    from .%s import %s as %s\n", mod, n, n)
		}
	}
	tmods := make([]string, 0, len(typeExports))
	for mod := range typeExports {
		tmods = append(tmods, mod)
	}
	emit.SortStrings(tmods)
	for _, mod := range tmods {
		names := typeExports[mod]
		emit.SortStrings(names)
		for _, n := range names {
			fmt.Fprintf(&mb, "    from .%s import %s as %s\n", mod, n, n)
		}
	}
	mb.WriteString("\n# The runtime names above by the generated module that defines them.\n_NAMES: dict[str, tuple[str, ...]] = {\n")
	for _, mod := range mods {
		fmt.Fprintf(&mb, "    %q: (", mod)
		for i, n := range exports[mod] {
			if i > 0 {
				mb.WriteString(", ")
			}
			fmt.Fprintf(&mb, "%q", n)
		}
		if len(exports[mod]) == 1 {
			mb.WriteString(",")
		}
		mb.WriteString("),\n")
	}
	mb.WriteString("}\n_OWNER: dict[str, str] = {n: mod for mod, names in _NAMES.items() for n in names}\n")
	mb.WriteString("\n\ndef __getattr__(name: str) -> Any:\n")
	mb.WriteString("    mod = _OWNER.get(name)\n    if mod is None:\n")
	mb.WriteString("        raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")\n")
	// __import__, not importlib.import_module: importlib is not loaded at start either.
	mb.WriteString("    module = __import__(f\"{__package__}.{mod}\", fromlist=[name])\n")
	// Every name of the module at once: a start uses about 80 of them (_limits alone imports
	// most of the limits), and one call of this function each was a measurable part of it.
	mb.WriteString("    g = globals()\n    for n in _NAMES[mod]:\n")
	mb.WriteString("        g[n] = getattr(module, n)  # later uses are plain global lookups\n")
	mb.WriteString("    return g[name]\n\n\n")
	mb.WriteString("def __dir__() -> list[str]:\n    return sorted([*globals(), *_OWNER])\n")
	out[ModelsFile] = mb.Bytes()
	return nil
}

// pyRefs lists the type names the given types refer to.
func pyRefs(types []*ir.Named) []string {
	seen := map[string]bool{}
	var walk func(t *ir.Type)
	walk = func(t *ir.Type) {
		if t == nil {
			return
		}
		if t.Ref != "" {
			seen[t.Ref] = true
		}
		for _, o := range t.OneOf {
			walk(o)
		}
		walk(t.Items)
		for _, f := range t.Fields {
			walk(f.Type)
		}
	}
	for _, n := range types {
		walk(n.Type)
	}
	var out []string
	for r := range seen {
		out = append(out, r)
	}
	emit.SortStrings(out)
	return out
}

// pyDoc writes a comment block, wrapped so ruff's line length (100) holds.
func pyComment(b *bytes.Buffer, indent, text string) {
	for _, l := range wrap(text, 96-len(indent)) {
		fmt.Fprintf(b, "%s# %s\n", indent, l)
	}
}

func wrap(text string, width int) []string {
	var lines []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = w
				continue
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		lines = append(lines, line)
	}
	return lines
}

func pyLimits(b *bytes.Buffer, m *ir.Model) {
	for _, l := range m.Limits {
		pyComment(b, "", fmt.Sprintf("%s (%s).", l.Description, l.Unit))
		fmt.Fprintf(b, "%s: Final = %d\n", l.Name, l.Value)
	}
	b.WriteString("\n")
}

func pyErrors(b *bytes.Buffer, m *ir.Model) {
	for _, e := range m.Errors {
		pyComment(b, "", fmt.Sprintf("%s: %s", e.Name, e.Meaning))
		fmt.Fprintf(b, "CODE_%s: Final = %d\n", emit.UpperSnake(e.Name), e.Code)
	}
	for _, e := range m.Errors {
		for _, msg := range e.Messages {
			pyComment(b, "", fmt.Sprintf("message %s (%s, data %s): %s", msg.Name, e.Name, msg.Data, msg.Meaning))
			fmt.Fprintf(b, "MESSAGE_%s: Final = %s\n", emit.UpperSnake(msg.Name), pyStr(msg.Template))
		}
	}
	b.WriteString(`

class ErrorInfo:
    """One row of the error registry (a slotted class: a NamedTuple would import typing)."""

    __slots__ = ("category", "code", "data_type", "meaning", "name", "retry_hint", "retryable")

    def __init__(self, code: int, name: str, meaning: str, category: str, retryable: str,
                 retry_hint: str, data_type: str) -> None:
        self.code = code
        self.name = name
        self.meaning = meaning
        self.category = category
        self.retryable = retryable
        self.retry_hint = retry_hint
        self.data_type = data_type

    def __repr__(self) -> str:
        return f"ErrorInfo({self.code}, {self.name!r})"


ERROR_REGISTRY: Final[tuple[ErrorInfo, ...]] = (
`)
	for _, e := range m.Errors {
		fmt.Fprintf(b, "    ErrorInfo(\n        %d,\n        %s,\n", e.Code, pyStr(e.Name))
		pieces := wrapStr(e.Meaning, 84)
		pieces[len(pieces)-1] += ","
		for _, l := range pieces {
			fmt.Fprintf(b, "        %s\n", l)
		}
		fmt.Fprintf(b, "        %s,\n        %s,\n        %s,\n        %s,\n    ),\n", pyStr(e.Category), pyStr(e.Retryable), pyStr(e.RetryHint), pyStr(e.Data))
	}
	b.WriteString(")\n\n")
}

// pyStr quotes s as a Python string literal (JSON-compatible escapes, double quotes).
func pyStr(s string) string { return strconv.Quote(s) }

// wrapStr splits a long string literal into implicitly concatenated pieces.
func wrapStr(s string, width int) []string {
	var out []string
	for len(s) > width {
		cut := strings.LastIndex(s[:width], " ")
		if cut <= 0 {
			cut = width
		}
		out = append(out, pyStr(s[:cut+1]))
		s = s[cut+1:]
	}
	return append(out, pyStr(s))
}
