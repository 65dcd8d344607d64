// Command apisurface prints the Go SDK's API surface as JSON, read from its source (go/ast)
// with `go -C sdk-go run ./internal/apisurface`: for every
// exported method of a type named <Service>Service, the operation and its positional
// arguments (ctx and the trailing options excluded), names in snake_case, so the three SDKs'
// surfaces compare as one JSON shape: {"kv": {"get": ["key"], ...}, ...}. The API-parity
// test compares it with schema/methods.json's sdk rows plus schema/sdk-surface.json.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Surface is service -> operation -> positional argument names.
type Surface map[string]map[string][]string

// Read parses the non-test Go files of the SDK package in dir.
func Read(dir string) (Surface, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := Surface{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			svc := serviceOf(fn.Recv.List[0].Type)
			if svc == "" {
				continue
			}
			if out[svc] == nil {
				out[svc] = map[string][]string{}
			}
			out[svc][Snake(fn.Name.Name)] = positional(fn.Type.Params)
		}
	}
	return out, nil
}

// serviceOf names the service of a receiver *XService ("" for any other receiver).
func serviceOf(t ast.Expr) string {
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	id, ok := t.(*ast.Ident)
	if !ok || !strings.HasSuffix(id.Name, "Service") || id.Name == "Service" {
		return ""
	}
	return Snake(strings.TrimSuffix(id.Name, "Service"))
}

// positional lists the parameters but a leading context.Context and a trailing variadic
// options parameter.
func positional(params *ast.FieldList) []string {
	out := []string{}
	for i, f := range params.List {
		if sel, ok := f.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" && i == 0 {
			continue
		}
		if _, ok := f.Type.(*ast.Ellipsis); ok && i == len(params.List)-1 {
			continue
		}
		for _, n := range f.Names {
			out = append(out, Snake(n.Name))
		}
	}
	return out
}

// Snake turns a Go name (FollowUp, taskName, KV, RequestInput) into snake_case.
func Snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 {
			prevLower := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if prevLower || (unicode.IsUpper(r[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// Expected is the surface the schema fixes: methods.json's sdk rows plus the conveniences of
// sdk-surface.json, read from the schema directory.
func Expected(schemaDir string) (Surface, error) {
	out := Surface{}
	add := func(svc, op string, args []string) {
		if out[svc] == nil {
			out[svc] = map[string][]string{}
		}
		out[svc][op] = append([]string{}, args...)
	}
	type row struct {
		Service   string   `json:"service"`
		Operation string   `json:"operation"`
		Arguments []string `json:"arguments"`
	}
	var methods struct {
		Methods []struct {
			SDK *row `json:"sdk"`
		} `json:"methods"`
	}
	if err := readJSON(filepath.Join(schemaDir, "methods.json"), &methods); err != nil {
		return nil, err
	}
	for _, m := range methods.Methods {
		if m.SDK != nil {
			add(m.SDK.Service, m.SDK.Operation, m.SDK.Arguments)
		}
	}
	var conv struct {
		Conveniences []row `json:"conveniences"`
	}
	if err := readJSON(filepath.Join(schemaDir, "sdk-surface.json"), &conv); err != nil {
		return nil, err
	}
	for _, c := range conv.Conveniences {
		add(c.Service, c.Operation, c.Arguments)
	}
	return out, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Diff lists, sorted, every operation present on one side only or with other arguments.
func Diff(got, want Surface) []string {
	var out []string
	keys := map[string]bool{}
	for s, ops := range got {
		for o := range ops {
			keys[s+"."+o] = true
		}
	}
	for s, ops := range want {
		for o := range ops {
			keys[s+"."+o] = true
		}
	}
	for k := range keys {
		s, o, _ := strings.Cut(k, ".")
		g, gok := got[s][o]
		w, wok := want[s][o]
		switch {
		case !gok:
			out = append(out, fmt.Sprintf("%s: the schema has it (%v), the SDK does not", k, w))
		case !wok:
			out = append(out, fmt.Sprintf("%s%v: the SDK has it, the schema does not", k, g))
		case !slices.Equal(g, w):
			out = append(out, fmt.Sprintf("%s: the SDK takes %v, the schema says %v", k, g, w))
		}
	}
	sort.Strings(out)
	return out
}
