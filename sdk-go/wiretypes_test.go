package octet_test

import (
	"encoding/json"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The SDK's names for these wire values are the generated types themselves (aliases), not
// look-alike structs: a shadow type would make these conversions fail to compile.
var (
	_ *protocol.ProgressStatus      = (*octet.ProgressStatus)(nil)
	_ *protocol.HookDisposition     = (*octet.Disposition)(nil)
	_ *protocol.StatusCollectResult = (*octet.StatusResult)(nil)
	_ *protocol.RenderSegment       = (*octet.Segment)(nil)
	// One Go type for a lifecycle occurrence, the SDK's and the host's (host/services tests
	// the host side); its Method is the schema's LifecycleEvent enum.
	_ *protocol.LifecycleNotification = (*octet.LifecycleNotification)(nil)
	_ protocol.LifecycleEvent         = octet.LifecycleNotification{}.Method
)

func TestWireTypeHelpers(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"Steps", octet.Steps("", 1, 3, "files"), `{"type":"status","current":1,"total":3,"unit":"files"}`},
		{"StatusMessage", octet.StatusMessage("working"), `{"type":"status","message":"working"}`},
		{"Block without a message", octet.Block(""), `{"disposition":{"action":"block"}}`},
		{"Block", octet.Block("no"), `{"disposition":{"action":"block","message":"no"}}`},
		{"ReplacePrompt", octet.ReplacePrompt(""), `{"disposition":{"action":"replace","prompt":""}}`},
		{"ReplaceOutput", octet.ReplaceOutput("x"), `{"disposition":{"action":"replace","output":"x"}}`},
		{"Styled", octet.Styled("counted", "accent"), `{"text":"counted","style_role":"accent"}`},
		{"plain Segment", octet.Segment{Text: "x"}, `{"text":"x","style_role":null}`},
		{"StatusResult", octet.StatusResult{Surface: "status", Text: "ok"}, `{"surface":"status","text":"ok","priority":0}`},
		{"Ptr", octet.ProgressStatus{Unit: octet.Ptr("")}, `{"type":"status","unit":""}`},
	} {
		got, err := json.Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s = %s (%v), want %s", c.name, got, err, c.want)
		}
	}
}
