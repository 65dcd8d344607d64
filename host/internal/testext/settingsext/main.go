// Command settingsext is the host's test extension for declared settings: written with the
// Go SDK, it reports the settings in force through a tool and refuses a greeting of
// "refuse-me", so the tests see validation, delivery, live change and refusal end to end.
package main

import (
	"context"
	"fmt"
	"os"

	octet "github.com/octet-kit/octet/sdk-go"
)

type settings struct {
	Greeting string `json:"greeting"`
	Limit    int    `json:"limit"`
	Token    string `json:"token"`
}

func main() {
	ext := octet.New(octet.Options{})
	cur := octet.OnConfigure(ext, func(ctx context.Context, s settings, info octet.ConfigureInfo) error {
		if s.Greeting == "refuse-me" {
			return octet.RefuseSettings("greeting \"refuse-me\" is refused", "pick another")
		}
		return nil
	})
	octet.Tool(ext, octet.ToolSpec{Name: "show", Description: "The settings in force"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			s, rev := cur.Current()
			return octet.Text(fmt.Sprintf("%s/%d/%s rev %d pid %d", s.Greeting, s.Limit, s.Token, rev, os.Getpid())), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "key", Description: "The call's idempotency key"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			return octet.Text("key=" + octet.IdempotencyKey(ctx)), nil
		})
	ext.Run()
}
