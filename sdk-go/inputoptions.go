package octet

// InputOption is one choice RequestInput offers: Value is what the handler receives, Label
// what the person sees, Description an optional longer explanation.
type InputOption struct {
	Value       string `json:"value"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// RequestInputOption configures one RequestInput call (WithOptions, WithFreeText).
type RequestInputOption func(*inputRequest)

type inputRequest struct {
	options  []InputOption
	freeText bool
}

// WithOptions offers choices, in order (at most 64, unique values; not with a secret): the
// answer is one of their values.
func WithOptions(options ...InputOption) RequestInputOption {
	return func(r *inputRequest) { r.options = append(r.options, options...) }
}

// WithFreeText lets the person answer with text that is none of the options' values.
func WithFreeText() RequestInputOption {
	return func(r *inputRequest) { r.freeText = true }
}
