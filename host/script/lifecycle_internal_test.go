package script

import (
	"slices"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The script accepts exactly the schema's lifecycle notifications: a method the schema
// adds or drops shows up here, not as a script that silently refuses or accepts it.
func TestLifecycleFieldsCoverEventMethods(t *testing.T) {
	var got []string
	for m := range lifecycleFields {
		got = append(got, m)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(protocol.EventMethods))
	if !slices.Equal(got, want) {
		t.Fatalf("lifecycleFields has %v, the schema's event methods are %v", got, want)
	}
}
