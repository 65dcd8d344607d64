// Command progress-and-cancellation fetches several records, reporting progress
// after each and stopping as soon as the host cancels the call: the handler's
// context is cancelled and the SDK answers -32800.
package main

import (
	"context"
	"fmt"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
)

type fetchArgs struct {
	Items   []string `json:"items"`
	DelayMS int      `json:"delay_ms,omitempty" jsonschema:"minimum=0,maximum=10000"`
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "fetch_many", Description: "Fetch several records"},
		func(ctx context.Context, a fetchArgs) (octet.Result, error) {
			for i, item := range a.Items {
				if err := fetch(ctx, item, time.Duration(a.DelayMS)*time.Millisecond); err != nil {
					return octet.Result{}, err // ctx.Err() after a cancel: answered -32800
				}
				// Progress is best effort: a host that did not negotiate
				// request_progress still gets the result.
				_ = ext.Progress.Report(ctx, octet.Steps(fmt.Sprintf("Fetched %d of %d", i+1, len(a.Items)), i+1, len(a.Items), "records"))
			}
			return octet.Text(fmt.Sprintf("fetched %d records", len(a.Items))), nil
		})
	ext.Run()
}

// fetch stands in for real work: it waits, but gives up when ctx is cancelled.
func fetch(ctx context.Context, item string, delay time.Duration) error {
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
