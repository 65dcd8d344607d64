// Package ordered decodes JSON keeping object keys in document order, so the intermediate
// model lists fields in the order the schema declares them and the output is deterministic.
package ordered

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Object is a JSON object with its keys in document order.
type Object struct {
	Keys []string
	Vals map[string]any
}

// Get returns the value of k and whether it is present.
func (o *Object) Get(k string) (any, bool) {
	v, ok := o.Vals[k]
	return v, ok
}

// Decode parses data; values are *Object, []any, string, json.Number, bool or nil.
// A repeated key is an error, as on the wire.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := value(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("offset %d: unexpected data after the JSON value", dec.InputOffset())
	}
	return v, nil
}

func value(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("offset %d: %w", dec.InputOffset(), err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &Object{Vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if _, dup := o.Vals[k]; dup {
					return nil, fmt.Errorf("offset %d: duplicate key %q", dec.InputOffset(), k)
				}
				v, err := value(dec)
				if err != nil {
					return nil, err
				}
				o.Keys = append(o.Keys, k)
				o.Vals[k] = v
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := value(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
		return nil, fmt.Errorf("offset %d: unexpected %v", dec.InputOffset(), t)
	default:
		return t, nil
	}
}
