package services

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestAgentHandlersShareOnePreamble: every agent/* handler resolves its parent through
// withAgent, and nothing else calls agentOwner, so the decode, host-rule, parent and
// release steps cannot drift apart again between the handlers. A handler that inlines
// the preamble (or forgets to hold the parent) fails here.
func TestAgentHandlersShareOnePreamble(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	funcs := map[string]*ast.FuncDecl{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	calls := func(fd *ast.FuncDecl, callee string) bool {
		found := false
		ast.Inspect(fd, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				switch fn := c.Fun.(type) {
				case *ast.Ident:
					found = found || fn.Name == callee
				case *ast.SelectorExpr:
					found = found || fn.Sel.Name == callee
				}
			}
			return !found
		})
		return found
	}
	for name, fd := range funcs {
		if name != "withAgent" && name != "agentOwner" && calls(fd, "agentOwner") {
			t.Errorf("%s calls agentOwner itself; agent/* handlers go through withAgent", name)
		}
	}
	n := 0
	for method, h := range handlers {
		if !strings.HasPrefix(method, "agent/") {
			continue
		}
		n++
		name := handlerName(t, h)
		fd := funcs[name]
		if fd == nil {
			t.Errorf("%s: handler %s not found in the package source", method, name)
			continue
		}
		if !calls(fd, "withAgent") {
			t.Errorf("%s: handler %s does not go through withAgent", method, name)
		}
	}
	if n < 5 {
		t.Fatalf("found %d agent/* handlers; the registry has more", n)
	}
}

// handlerName is the declared name of a method expression such as (*Router).agentSpawn.
func handlerName(t *testing.T, h any) string {
	t.Helper()
	full := runtime.FuncForPC(reflect.ValueOf(h).Pointer()).Name()
	return strings.TrimSuffix(full[strings.LastIndex(full, ".")+1:], "-fm")
}
