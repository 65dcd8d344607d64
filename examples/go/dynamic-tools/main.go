// Command dynamic-tools adds and removes a provider_search tool at run time
// (negotiated dynamic_tools). Each change is a new catalog revision; calls planned
// against a retained revision still reach the handler of that revision.
package main

import (
	"context"
	"fmt"

	octet "github.com/octet-kit/octet/sdk-go"
)

type enableArgs struct {
	Provider string `json:"provider" jsonschema:"description=Name of the search provider"`
}

type searchArgs struct {
	Query string `json:"query"`
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "enable_search", Description: "Register provider_search for a provider"},
		func(ctx context.Context, a enableArgs) (octet.Result, error) {
			search, err := octet.DefineTool(octet.ToolSpec{Name: "provider_search", Description: "Search " + a.Provider},
				func(ctx context.Context, s searchArgs) (octet.Result, error) {
					return octet.Text(fmt.Sprintf("%s results for %q", a.Provider, s.Query)), nil
				})
			if err != nil {
				return octet.Result{}, err
			}
			up, err := ext.Catalog.Register(ctx, []*octet.ToolDef{search})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text(fmt.Sprintf("provider_search enabled (revision %d, catalog %v)", up.Revision, up.Tools)), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "disable_search", Description: "Unregister provider_search"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			up, err := ext.Catalog.Unregister(ctx, []string{"provider_search"})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text(fmt.Sprintf("provider_search disabled (revision %d)", up.Revision)), nil
		})
	ext.Run()
}
