package typescript

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// The dispatch emitters turn the registry's routing metadata (direction, dispatch role,
// owner binding, gating feature) into what each SDK's hand-written code would otherwise
// restate: method and feature constants, the derived sets (work methods, lifecycle events,
// features per offer), a handler interface for every method the extension receives with a
// dispatch table over it, and typed request descriptors for every method it sends.

// tsHandler is the handler member of a received method (tool/call -> toolCall).
func tsHandler(name string) string { return emit.LowerFirst(emit.GoName(name)) }

func tsDispatch(m *ir.Model) string {
	hash := emit.Fingerprint(true, m.Methods, m.Negotiation)
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	fmt.Fprintf(&b, "// Source: schema/methods.json, schema/initialize.schema.json x-octet-features.\n")
	b.WriteString("// The host handler interface, its dispatch table and the derived method and feature sets.\n\n")
	b.WriteString("/** Dispatch roles: how an SDK routes a method it receives. */\nexport const Dispatch = {\n")
	for _, r := range ir.DispatchRoles {
		fmt.Fprintf(&b, "  %s: %s,\n", emit.UpperSnake(r), tsStr(r))
	}
	b.WriteString("} as const;\nexport type DispatchRole = (typeof Dispatch)[keyof typeof Dispatch];\n\n")
	if n := m.Negotiation; n != nil {
		b.WriteString("/** Feature names (the Feature enum). */\nexport const FeatureName = {\n")
		for _, f := range n.Features {
			fmt.Fprintf(&b, "  %s: %s,\n", emit.UpperSnake(f.Name), tsStr(f.Name))
		}
		b.WriteString("} as const;\n\n")
		for _, how := range emit.OfferKinds {
			fmt.Fprintf(&b, "/** API version -> the features offered %s in it, in table order. */\nexport const %s_FEATURES: Readonly<Record<string, readonly string[]>> = {\n", how, strings.ToUpper(how))
			for _, p := range emit.Offered(n, how) {
				q := []string{}
				for _, f := range emit.SplitList(p.Text) {
					q = append(q, tsStr(f))
				}
				fmt.Fprintf(&b, "  %s: [%s],\n", tsStr(p.Name), strings.Join(q, ", "))
			}
			b.WriteString("};\n\n")
		}
	}
	for _, r := range []string{ir.DispatchWork, ir.DispatchEvent} {
		q := []string{}
		for _, n := range emit.RoleMethods(m, r) {
			q = append(q, tsStr(n))
		}
		fmt.Fprintf(&b, "/** Received methods whose role is %q. */\nexport const %s_METHODS: ReadonlySet<string> = new Set([%s]);\n\n", r, emit.UpperSnake(r), strings.Join(q, ", "))
	}
	b.WriteString("/**\n * What an SDK implements to receive the host's methods: one member per method the registry\n * lists as received, so an SDK missing one does not compile. C is the SDK's call type.\n */\nexport interface HostHandlers<C> {\n")
	for _, me := range emit.Received(m) {
		fmt.Fprintf(&b, "  /** %s (%s %s): %s */\n  %s(call: C): unknown;\n", me.Name, me.Dispatch, me.Kind, me.Description, tsHandler(me.Name))
	}
	b.WriteString(`}

/** One row of the dispatch table. */
export interface HostRoute {
  readonly method: string;
  readonly handler: keyof HostHandlers<unknown>;
  readonly dispatch: DispatchRole;
  readonly notification: boolean;
  readonly ownerBound: boolean;
  /** API version -> params type name (validated before the handler runs). */
  readonly params: Readonly<Record<string, string>>;
}

/** The dispatch table of received methods, by name. */
export const HOST_ROUTES: Readonly<Record<string, HostRoute>> = {
`)
	for _, me := range emit.Received(m) {
		var parts []string
		for _, v := range me.Params {
			for _, ver := range v.Versions {
				parts = append(parts, fmt.Sprintf("%s: %s", tsStr(ver), tsStr(v.Type)))
			}
		}
		fmt.Fprintf(&b, "  %s: { method: %s, handler: %s, dispatch: %s, notification: %v, ownerBound: %v, params: { %s } },\n",
			tsStr(me.Name), tsStr(me.Name), tsStr(tsHandler(me.Name)), tsStr(me.Dispatch), me.Kind == "notification", me.OwnerBound, strings.Join(parts, ", "))
	}
	b.WriteString(`};

/** Run the handler of a received method; undefined when the registry lacks it. */
export function dispatchHost<C>(handlers: HostHandlers<C>, method: string, call: C): { value: unknown } | undefined {
  const route = Object.hasOwn(HOST_ROUTES, method) ? HOST_ROUTES[method] : undefined;
  if (route === undefined) return undefined;
  return { value: handlers[route.handler](call) };
}
`)
	return b.String()
}

func tsRequests(m *ir.Model) string {
	hash := emit.Fingerprint(true, m.Methods)
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	fmt.Fprintf(&b, "// Source: schema/methods.json.\n")
	imports := map[string]bool{}
	for _, me := range emit.Sent(m) {
		if p := emit.SingleType(me.Params); p != "" {
			imports[p] = true
		}
		if r := emit.SingleType(me.Result); r != "" {
			imports[r] = true
		}
	}
	var names []string
	for n := range imports {
		names = append(names, n)
	}
	emit.SortStrings(names)
	byFile := map[string][]string{}
	for _, n := range names {
		nt := m.Lookup(n)
		if nt == nil || nt.File == nil {
			continue
		}
		byFile[nt.File.Stem] = append(byFile[nt.File.Stem], n)
	}
	var stems []string
	for s := range byFile {
		stems = append(stems, s)
	}
	emit.SortStrings(stems)
	for _, s := range stems {
		fmt.Fprintf(&b, "import type { %s } from \"./%s.types.js\";\n", strings.Join(byFile[s], ", "), s)
	}
	b.WriteString(`import type { Parent } from "../types.js";

/** What every descriptor says about its method: the session's send reads it. */
interface Descriptor {
  readonly method: string;
  /** Negotiated feature the host needs for it ("" none). */
  readonly feature: string;
  /** Manifest contribution that enables it ("" none). */
  readonly contribution: string;
  /** Params name the parent host request whose owner applies. */
  readonly ownerBound: boolean;
  /** Whether params carry parent_request_id, which the session fills from the call in progress. */
  readonly parent: "required" | "optional" | "none";
  /** API versions that have the method. */
  readonly versions: readonly string[];
  /** Schema type of the params: the generated validator checks them by this name. */
  readonly params: string;
}

/** Binds an extension-to-host request to its params and result types (as vscode-jsonrpc's RequestType). */
export interface RequestType<P, R> extends Descriptor {
  readonly kind: "request";
  /** Schema type of the result, checked before the caller sees it. */
  readonly result: string;
  /** Type-level only: never set. */
  readonly _types?: (p: P) => R;
}

/** Binds an extension-to-host notification to its params type. */
export interface NotificationType<P> extends Descriptor {
  readonly kind: "notification";
  readonly _types?: (p: P) => void;
}

/** Params as a caller writes them: parent_request_id is the session's to fill. */
export type Outgoing<P> = P extends unknown ? Omit<P, "parent_request_id"> : never;

/** Params as a generated operation builds them: members may be undefined (dropped before validation). */
export type Draft<P> = P extends unknown ? { [K in Exclude<keyof P, "parent_request_id">]?: P[K] | undefined } : never;

/** Per call: the request this call belongs to (default: the handler running) and a signal to stop waiting. */
export interface CallOptions {
  parent?: Parent | undefined;
  signal?: AbortSignal | undefined;
}

/** What the generated services send through: the session. */
export interface Sender {
  request<P, R>(type: RequestType<P, R>, params: Draft<P>, call?: CallOptions): Promise<R>;
  notify<P>(type: NotificationType<P>, params: Draft<P>, call?: CallOptions): void;
}

`)
	b.WriteString("/** Every extension-to-host method as a typed descriptor: callers name these, never the method string. */\nexport const Requests = {\n")
	for _, me := range emit.Sent(m) {
		p := emit.SingleType(me.Params)
		if p == "" {
			continue
		}
		parent := parentRole(m, p)
		vs := make([]string, len(me.Versions))
		for i, v := range me.Versions {
			vs[i] = tsStr(v)
		}
		name := emit.UpperSnake(me.Name)
		common := fmt.Sprintf("method: %s, feature: %s, contribution: %s, ownerBound: %v, parent: %s, versions: [%s], params: %s",
			tsStr(me.Name), tsStr(me.Feature), tsStr(me.Contribution), me.OwnerBound, tsStr(parent), strings.Join(vs, ", "), tsStr(p))
		if me.Kind == "request" {
			r := emit.SingleType(me.Result)
			fmt.Fprintf(&b, "  /** %s: %s */\n  %s: { kind: \"request\", %s, result: %s } as RequestType<%s, %s>,\n", me.Name, me.Description, name, common, tsStr(r), p, r)
		} else {
			fmt.Fprintf(&b, "  /** %s: %s */\n  %s: { kind: \"notification\", %s } as NotificationType<%s>,\n", me.Name, me.Description, name, common, p)
		}
	}
	b.WriteString("} as const;\n")
	return b.String()
}

// parentRole says whether a params type carries parent_request_id, required or optional.
func parentRole(m *ir.Model, typ string) string {
	for _, f := range paramFields(m, typ) {
		if f.name == "parent_request_id" {
			if f.required {
				return "required"
			}
			return "optional"
		}
	}
	return "none"
}

func tsDispatchTest(m *ir.Model, hash string) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", hash))
	fmt.Fprintf(&b, "// Source: schema/methods.json.\n")
	b.WriteString(`// The dispatch table covers exactly the received methods of the registry; the compiler checks
// that the SDK implements HostHandlers (a missing member fails the build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { HOST_ROUTES, METHODS } from "../src/generated/index.js";

test("HOST_ROUTES lists every received method of the registry", () => {
  const received = Object.values(METHODS).filter((m) => m.direction !== "extension_to_host").map((m) => m.name);
  assert.deepEqual(Object.keys(HOST_ROUTES).sort(), received.sort());
  assert.deepEqual(Object.keys(HOST_ROUTES).sort(), [
`)
	var names []string
	for _, me := range emit.Received(m) {
		names = append(names, me.Name)
	}
	emit.SortStrings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "    %s,\n", tsStr(n))
	}
	b.WriteString("  ]);\n});\n")
	return b.String()
}
