package process

import (
	"os"
	"sort"
	"strings"
)

// baseline are the host variables every extension inherits when set (wire.md §9).
var baseline = []string{"PATH", "HOME", "USER", "LANG", "TZ", "TMPDIR", "TERM"}

// Environment builds the sanitised environment for spec: the baseline and LC_* variables
// copied from the host, the OCTET_* variables, the names granted with pass_env, and
// SSH_AUTH_SOCK when the manifest declares it. Nothing else from the host reaches the child,
// so a secret-looking variable in the host's environment never does.
func Environment(spec *Spec) []string {
	lookup := spec.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	environ := spec.Environ
	if environ == nil {
		environ = os.Environ
	}
	env := map[string]string{}
	for _, k := range baseline {
		if v, ok := lookup(k); ok {
			env[k] = v
		}
	}
	for _, kv := range environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "LC_") {
			env[k] = v
		}
	}
	for _, k := range spec.PassEnv {
		if v, ok := lookup(k); ok {
			env[k] = v
		}
	}
	if spec.SSHAuthSock {
		if v, ok := lookup("SSH_AUTH_SOCK"); ok {
			env["SSH_AUTH_SOCK"] = v
		}
	}
	// OCTET_* last: a pass_env grant cannot override the host-bound identity.
	env["OCTET_EXTENSION_API_VERSION"] = spec.APIVersion
	env["OCTET_EXTENSION_NAME"] = spec.Name
	env["OCTET_EXTENSION_DIR"] = spec.Dir
	env["OCTET_EXTENSION_MANIFEST"] = spec.ManifestPath
	env["OCTET_WORKSPACE"] = spec.Workspace
	env["OCTET_EXTENSION_SCRATCH"] = spec.ScratchDir
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
