package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// The host checks everything an extension returns before anyone sees it (seed 002: the
// host, not the SDK, is the authority): the result type the schema names for the method and
// the negotiated API version, a tool result's structured_content against the tool's
// output_schema, and every media part against the artifact owner/generation fence. A result
// that fails is not passed on: the caller gets a *ResultError, and Options.OnRejected (the
// reference host's trace and recording) sees it.

// ResultError is an extension's answer the host refused.
type ResultError struct {
	Extension string
	Method    string // tool/call, command/execute, hook/run, context/collect, status/collect, tool/render
	Name      string // the tool, command, hook, surface or rendered tool the request named
	// Schema is what the result was judged against: the schema type (ToolResult,
	// HookRunResult, ...), "output_schema", or "artifact_fence" for a media part.
	Schema  string
	Pointer string // RFC 6901 pointer into the result ("" is the root)
	Rule    string // the keyword broken (additionalProperties, type, ...) or the fence rule
	Reason  string
}

func (e *ResultError) Error() string {
	return fmt.Sprintf("extension %s: %s %q returned a result the host refused: %s: %s (%s %s)",
		e.Extension, e.Method, e.Name, displayPointer(e.Pointer), e.Reason, e.Schema, e.Rule)
}

// ArgumentsError is a tool/call the host refused before sending it: the arguments break
// the parameters schema of the catalog entry the call was planned against, so the
// extension never sees arguments its own schema forbids.
type ArgumentsError struct {
	Extension, Tool string
	Pointer         string // RFC 6901 pointer into the arguments
	Keyword         string
	Reason          string
}

func (e *ArgumentsError) Error() string {
	return fmt.Sprintf("extension %s: tool %q arguments refused before sending: %s: %s (parameters %s)",
		e.Extension, e.Tool, displayPointer(e.Pointer), e.Reason, e.Keyword)
}

// MediaChecker is implemented by a Services that owns artifacts (host/services.Router): the
// host asks it to resolve every media part of a tool result through the owner/generation
// fence. Without one, a result naming an artifact is refused: nothing could resolve it.
type MediaChecker interface {
	CheckMedia(ctx context.Context, c *Caller, owner Owner, content json.RawMessage) error
}

// checkResult judges raw, the answer of method for name from generation g, against the
// method's result type for g's API version. It returns the strict parse for further checks.
// r, when not nil, lends the parse its maps and arrays: the doc is then the caller's only
// until it releases r.
func (g *generation) checkResult(method, name string, raw json.RawMessage, r *strictjson.Reuse) (any, error) {
	doc, re := judgeResultWith(r, method, g.manifest.APIVersion, name, raw)
	if re != nil {
		re.Extension = g.manifest.Name
		return nil, g.reject(re)
	}
	return doc, nil
}

// judgeResult is the result-type check itself, shared with the conformance host: the
// generated validator's verdict first (no error is built on the valid path), then its
// first violation as pointer and keyword. A nil doc and nil error: the method has no
// result type for that version.
func judgeResult(method, apiVersion, name string, raw json.RawMessage) (any, *ResultError) {
	return judgeResultWith(nil, method, apiVersion, name, raw)
}

// judgeResultWith is judgeResult parsing with r (nil: a document of its own).
func judgeResultWith(r *strictjson.Reuse, method, apiVersion, name string, raw json.RawMessage) (any, *ResultError) {
	info, ok := protocol.LookupMethod(method)
	typeName := ""
	if ok {
		typeName = info.Result[apiVersion]
	}
	if typeName == "" {
		return nil, nil
	}
	var doc any
	var err error
	if r != nil {
		doc, err = r.Parse(raw, 0)
	} else {
		doc, err = strictjson.Parse(raw)
	}
	if err != nil {
		return nil, &ResultError{Method: method, Name: name, Schema: typeName, Rule: "strict_json", Reason: err.Error()}
	}
	if protocol.Valid(typeName, doc) {
		return doc, nil
	}
	verr := protocol.Validate(typeName, doc)
	var list protocol.ValidationErrors
	re := &ResultError{Method: method, Name: name, Schema: typeName, Rule: "schema", Reason: fmt.Sprint(verr)}
	if errors.As(verr, &list) && len(list) > 0 {
		re.Pointer, re.Rule, re.Reason = list[0].Pointer, list[0].Keyword, list[0].Msg
	}
	return nil, re
}

// judgeOutput checks a tool result's structured_content against the tool's compiled
// output_schema (nil: none declared).
func judgeOutput(output *jsonschema.Schema, name string, res map[string]any) *ResultError {
	if output == nil {
		return nil
	}
	sc, present := res["structured_content"]
	if !present {
		return &ResultError{Method: protocol.MethodToolCall, Name: name, Schema: "output_schema", Rule: "required",
			Reason: `the tool declares an output_schema but the result has no "structured_content"`}
	}
	if f := judgeDoc(output, sc); f != nil {
		return &ResultError{Method: protocol.MethodToolCall, Name: name, Schema: "output_schema", Pointer: "/structured_content" + f.pointer, Rule: f.keyword, Reason: f.reason}
	}
	return nil
}

// JudgeResult applies the host's result checks that need no services (the result type of
// method for apiVersion and, for tool/call, the tool's output_schema) to raw, the answer
// an extension gave for name. The conformance host uses it so certification judges
// exactly as the host does; it compiles outputSchema on every call (the host compiles it
// once per catalog entry).
func JudgeResult(method, apiVersion, name string, raw, outputSchema json.RawMessage) error {
	doc, re := judgeResult(method, apiVersion, name, raw)
	if re != nil {
		return re
	}
	if method != protocol.MethodToolCall || len(outputSchema) == 0 || doc == nil {
		return nil
	}
	output, err := compileToolSchema(outputSchema)
	if err != nil {
		return fmt.Errorf("tool %q output_schema: %v", name, err)
	}
	res, _ := doc.(map[string]any)
	if re := judgeOutput(output, name, res); re != nil {
		return re
	}
	return nil
}

// checkToolResult is checkResult for tool/call plus the tool's output_schema and the media
// fence. entry is the catalog entry the call was planned against (nil: none known).
func (g *generation) checkToolResult(ctx context.Context, name string, entry *CatalogEntry, raw json.RawMessage) error {
	// The parsed result lives only in this function: every verdict below is built of
	// strings and the media check reads raw, so its maps go back for the next call.
	r := getReuse()
	defer putReuse(r)
	doc, err := g.checkResult(protocol.MethodToolCall, name, raw, r)
	if err != nil || doc == nil {
		return err
	}
	res, _ := doc.(map[string]any)
	if entry != nil && entry.schemas != nil {
		if re := judgeOutput(entry.schemas.output, name, res); re != nil {
			re.Extension = g.manifest.Name
			return g.reject(re)
		}
	}
	refuse := func(pointer, rule, reason string) error {
		return g.reject(&ResultError{Extension: g.manifest.Name, Method: protocol.MethodToolCall, Name: name, Schema: "artifact_fence", Pointer: pointer, Rule: rule, Reason: reason})
	}
	content, ok := res["content"].([]any)
	if !ok {
		return nil // API 0.1: content is a string, there is no media
	}
	for i, p := range content {
		part, _ := p.(map[string]any)
		if t := part["type"]; t != "image" && t != "audio" {
			continue
		}
		mc, ok := g.ext.host.services.(MediaChecker)
		if !ok {
			return refuse(fmt.Sprintf("/content/%d/artifact_id", i), "artifact_unresolvable", "this host has no artifact service to resolve the part's artifact")
		}
		if err := mc.CheckMedia(ctx, g.caller, g.owner(), memberRaw(raw, "content")); err != nil {
			pointer, reason := mediaFault(err.Error())
			return refuse(pointer, mediaRule(reason), reason)
		}
		break // CheckMedia judged every part at once
	}
	return nil
}

// reuses lends parses for result checks their maps and arrays (strictjson.Reuse): a
// result is parsed, judged and dropped on every call.
var reuses sync.Pool

func getReuse() *strictjson.Reuse {
	if r, ok := reuses.Get().(*strictjson.Reuse); ok {
		return r
	}
	return new(strictjson.Reuse)
}

func putReuse(r *strictjson.Reuse) {
	r.Release()
	reuses.Put(r)
}

// mediaFault splits a CheckMedia refusal ("content[2]: artifact ... is unavailable ...")
// into the part's JSON pointer and the reason.
func mediaFault(msg string) (string, string) {
	if m := contentIndex.FindStringSubmatch(msg); m != nil {
		return "/content/" + m[1], strings.TrimPrefix(msg[len(m[0]):], ": ")
	}
	return "/content", msg
}

var contentIndex = regexp.MustCompile(`^content\[(\d+)\]`)

// mediaRule names which part of the fence a media part broke.
func mediaRule(reason string) string {
	switch {
	case strings.Contains(reason, "unavailable to this owner and generation"):
		return "owner_generation"
	case strings.Contains(reason, "does not match the artifact"):
		return "mime_type"
	case strings.Contains(reason, "media type"):
		return "verified_media_type"
	case strings.Contains(reason, "exceed"):
		return "RESULT_MAX_MEDIA_BYTES"
	}
	return "artifact_fence"
}

// reject reports a refused result to Options.OnRejected and returns it.
func (g *generation) reject(err error) error {
	if f := g.ext.host.opts.OnRejected; f != nil {
		f(g.manifest.Name, g.number, err)
	}
	return err
}

// checkArguments judges a tool/call's arguments against the planned entry's parameters.
func (e *Extension) checkArguments(entry *CatalogEntry, args json.RawMessage) error {
	if entry == nil || entry.schemas == nil || entry.schemas.params == nil || e.host.uncheckedForBench {
		return nil
	}
	if entry.schemas.anyObject && json.Valid(args) && bytes.HasPrefix(bytes.TrimLeft(args, " \t\r\n"), []byte("{")) {
		return nil // {"type": "object"} admits every object: nothing to parse
	}
	if argumentsPass(entry.schemas.params, args) {
		return nil
	}
	f, err := judge(entry.schemas.params, args)
	if err != nil || f == nil {
		return err
	}
	err = &ArgumentsError{Extension: e.name, Tool: entry.Tool.Name, Pointer: f.pointer, Keyword: f.keyword, Reason: f.reason}
	if fn := e.host.opts.OnRejected; fn != nil {
		fn(e.name, entry.Generation, err)
	}
	return err
}

// argumentsPass is checkArguments' fast path: valid arguments parsed strictly into a
// pooled tree (strictjson.Reuse) and validated, without the decoder and allocations of
// judge's parse. Only a pass is decided here. Anything else, a strict-parse refusal
// (duplicate keys, depth) or a failed validation, goes through judge as before, so every
// refusal keeps its words and no fault refers to the pooled tree's memory. A document
// strictjson accepts parses to the same values (maps, slices, json.Number, strings,
// booleans, null) as judge's, so the verdict on a pass is the same.
func argumentsPass(s *jsonschema.Schema, args json.RawMessage) bool {
	r := getReuse()
	defer putReuse(r)
	doc, err := r.Parse(args, 0)
	return err == nil && s.Validate(doc) == nil
}

// memberRaw returns the raw value of key in the JSON object raw (already parsed strictly).
func memberRaw(raw json.RawMessage, key string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m[key]
}
