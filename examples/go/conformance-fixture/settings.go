package main

import (
	"context"
	"fmt"

	octet "github.com/octet-kit/octet/sdk-go"
)

// fixtureSettings are the settings the fixture's manifest declares.
type fixtureSettings struct {
	Note string `json:"note"`
}

// registerSettings: the on-configure handler and the two tools the config.* and
// idempotency.key_delivered checks observe. A note "refuse-me" is refused; every other
// value comes into force (a dry run only judges).
func registerSettings(ext *octet.Extension) {
	cur := octet.OnConfigure(ext, func(ctx context.Context, s fixtureSettings, info octet.ConfigureInfo) error {
		if s.Note == "refuse-me" {
			return octet.RefuseSettings(`note "refuse-me" is refused`)
		}
		return nil
	})
	octet.Tool(ext, octet.ToolSpec{Name: "settings_in_force", Description: "The note in force and its revision, as note@revision"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			s, rev := cur.Current()
			return octet.Text(fmt.Sprintf("%s@%d", s.Note, rev)), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "idempotency_key_seen", Description: "The call's idempotency key, as key=KEY"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			return octet.Text("key=" + octet.IdempotencyKey(ctx)), nil
		})
}
