// Command dynext is an extension written with the Go SDK for the catalog-revision
// integration test: it replaces and removes one dynamic tool, "versioned", whose
// answer names the version that was registered, and it can crash on demand.
package main

import (
	"context"
	"os"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "set_versioned", Description: "Register (or replace) the tool versioned, answering text"},
		func(ctx context.Context, a struct {
			Text string `json:"text"`
		}) (octet.Result, error) {
			def, err := octet.DefineTool(octet.ToolSpec{Name: "versioned", Description: "Answers " + a.Text},
				func(context.Context, struct{}) (octet.Result, error) { return octet.Text(a.Text), nil })
			if err != nil {
				return octet.Result{}, octet.Fail(protocol.CodeInvalidParams, err.Error(), nil)
			}
			if _, err := ext.Catalog.Register(ctx, []*octet.ToolDef{def}); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("set " + a.Text), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "drop_versioned", Description: "Unregister the tool versioned"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			if _, err := ext.Catalog.Unregister(ctx, []string{"versioned"}); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("dropped"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "crash", Description: "Exit at once, mid-call"},
		func(context.Context, struct{}) (octet.Result, error) { os.Exit(3); return octet.Result{}, nil })
	ext.Run()
}
