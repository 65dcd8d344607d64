package process

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
)

// baseline are the host variables every extension inherits when set (wire.md §9).
var baseline = []string{"PATH", "HOME", "USER", "LANG", "TZ", "TMPDIR", "TERM"}

// locale are the locale categories of POSIX and glibc, inherited with the baseline. Only
// these: any LC_ prefix would let a variable such as LC_API_TOKEN through.
var locale = []string{"LC_ALL", "LC_ADDRESS", "LC_COLLATE", "LC_CTYPE", "LC_IDENTIFICATION", "LC_MEASUREMENT",
	"LC_MESSAGES", "LC_MONETARY", "LC_NAME", "LC_NUMERIC", "LC_PAPER", "LC_TELEPHONE", "LC_TIME"}

// CheckEnvName refuses a name that cannot be an environment variable's (letters, digits
// and '_', not starting with a digit), so a grant such as --pass-env 'BAD=NAME' is an
// error at once rather than a grant that silently matches nothing.
func CheckEnvName(name string) error {
	ok := name != ""
	for i := 0; i < len(name) && ok; i++ {
		c := name[i]
		ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9')
	}
	if !ok {
		return fmt.Errorf("%q is not an environment variable name (letters, digits and _, not starting with a digit)", name)
	}
	return nil
}

// Environment builds the sanitised environment for spec: the baseline and locale variables
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
		if k, v, ok := strings.Cut(kv, "="); ok && slices.Contains(locale, k) {
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
	if spec.StateDir != "" {
		env["OCTET_EXTENSION_STATE"] = spec.StateDir
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
