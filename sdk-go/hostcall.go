package octet

import "fmt"

// HostResultError is a host answer that does not match the schema's result type (or a rule
// across its members): Send refuses to act on it (the Python and TypeScript SDKs raise the
// same refusal).
type HostResultError struct {
	Method string
	Reason string
}

func (e *HostResultError) Error() string {
	return fmt.Sprintf("octet: the host's %s result does not match the schema: %s", e.Method, e.Reason)
}
