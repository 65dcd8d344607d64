package octet

// Ptr returns a pointer to v: the wire types mark an optional member with a pointer, so a
// literal needs one (octet.ProgressStatus{Message: octet.Ptr("working")}).
func Ptr[T any](v T) *T { return &v }

// nonEmpty is s as an optional member: nil (left out) when s is empty, as the SDK's string
// parameters have always meant.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
