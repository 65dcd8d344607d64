package sandboxinit

import (
	"strings"
	"testing"
)

// An init refuses a policy of another build (another format, or fields it does not know)
// instead of applying the part it understands.
func TestPolicyOfAnotherBuildRefused(t *testing.T) {
	good, err := (&Policy{Name: "x", Filesystem: FilesystemWorkspace}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodePolicy(good); err != nil {
		t.Fatalf("own format: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, PolicyFormat, "octet-sandbox-policy-1", 1),
		strings.Replace(good, `"name"`, `"new_rule":true,"name"`, 1),
	} {
		if _, err := decodePolicy(bad); err == nil || !strings.Contains(err.Error(), "another build") {
			t.Errorf("%s: %v, want refused", bad, err)
		}
	}
}
