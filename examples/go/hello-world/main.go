// Command hello-world is the smallest octet extension: one tool, hello_world,
// that greets someone. Its parameters schema is derived from the argument struct.
package main

import (
	"context"

	octet "github.com/octet-kit/octet/sdk-go"
)

// helloArgs are hello_world's arguments; the json names are the schema's.
type helloArgs struct {
	Name string `json:"name" jsonschema:"description=Who to greet"`
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "hello_world", Description: "Greet someone"},
		func(ctx context.Context, args helloArgs) (octet.Result, error) {
			return octet.Text("Hello, " + args.Name + "!"), nil
		})
	ext.Run()
}
