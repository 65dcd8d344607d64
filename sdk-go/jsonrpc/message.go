package jsonrpc

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// message is one decoded frame: a request (id and method), a notification (method,
// no id) or a response (id and exactly one of result and error).
type message struct {
	id        ID
	method    string
	hasMethod bool
	params    json.RawMessage
	result    json.RawMessage
	err       *Error
	nullID    bool // a response with "id": null (the peer could not read our frame)
}

func (m *message) isResponse() bool { return !m.hasMethod }

// envelopeError is a frame that is a JSON object but not a valid envelope. When the
// frame carried a usable request id the error can be answered with -32600 and the
// connection survives; otherwise it is a protocol error.
type envelopeError struct {
	id     ID // zero unless the frame is a request with a valid id
	reason string
}

func (e *envelopeError) Error() string { return e.reason }

// decodeMessage decodes one frame strictly: the frame must be a JSON object whose
// keys are exactly the JSON-RPC 2.0 envelope fields (case-sensitive, no duplicates,
// nothing else). The caller has already checked that the line is valid JSON.
func decodeMessage(line []byte) (*message, error) {
	fields, err := splitObject(line)
	if err != nil {
		return nil, err
	}
	m := &message{}
	var version, rawID, rawMethod, rawParams, rawResult, rawError json.RawMessage
	for _, f := range fields {
		var slot *json.RawMessage
		switch f.key {
		case "jsonrpc":
			slot = &version
		case "id":
			slot = &rawID
		case "method":
			slot = &rawMethod
		case "params":
			slot = &rawParams
		case "result":
			slot = &rawResult
		case "error":
			slot = &rawError
		default:
			return nil, m.fail(rawID, rawMethod, fmt.Sprintf("unknown envelope field %q", f.key))
		}
		if *slot != nil {
			return nil, m.fail(rawID, rawMethod, fmt.Sprintf("duplicate envelope field %q", f.key))
		}
		*slot = f.value
	}
	if string(version) != `"2.0"` {
		if version == nil {
			return nil, m.fail(rawID, rawMethod, `missing "jsonrpc": "2.0"`)
		}
		return nil, m.fail(rawID, rawMethod, fmt.Sprintf(`"jsonrpc" is %s, want "2.0"`, valueExcerpt(version)))
	}
	if rawMethod != nil {
		return m.decodeRequest(rawID, rawMethod, rawParams, rawResult, rawError)
	}
	return m.decodeResponse(rawID, rawParams, rawResult, rawError)
}

func (m *message) decodeRequest(rawID, rawMethod, rawParams, rawResult, rawError json.RawMessage) (*message, error) {
	m.hasMethod = true
	if err := decodeString(rawMethod, &m.method); err != nil || m.method == "" {
		return nil, m.fail(rawID, nil, fmt.Sprintf(`"method" must be a non-empty string, got %s`, valueExcerpt(rawMethod)))
	}
	if rawID != nil {
		id, err := parseID(rawID)
		if err != nil {
			return nil, &envelopeError{reason: fmt.Sprintf("request %q: %v", m.method, err)}
		}
		m.id = id
	}
	if rawResult != nil || rawError != nil {
		return nil, m.fail(rawID, rawMethod, `a request must not carry "result" or "error"`)
	}
	if rawParams != nil {
		if rawParams[0] != '{' {
			return nil, m.fail(rawID, rawMethod, fmt.Sprintf(`"params" must be an object, got %s`, valueExcerpt(rawParams)))
		}
		m.params = rawParams
	}
	return m, nil
}

func (m *message) decodeResponse(rawID, rawParams, rawResult, rawError json.RawMessage) (*message, error) {
	if rawParams != nil {
		return nil, &envelopeError{reason: `a frame with "params" has no "method"`}
	}
	if rawID == nil {
		return nil, &envelopeError{reason: `a frame has neither "method" nor "id"`}
	}
	if string(rawID) == "null" {
		m.nullID = true
	} else {
		id, err := parseID(rawID)
		if err != nil {
			return nil, &envelopeError{reason: fmt.Sprintf("response: %v", err)}
		}
		m.id = id
	}
	switch {
	case rawResult != nil && rawError != nil:
		return nil, &envelopeError{reason: fmt.Sprintf(`response %s carries both "result" and "error"`, valueExcerpt(rawID))}
	case rawResult != nil:
		if m.nullID {
			return nil, &envelopeError{reason: `a successful response has "id": null`}
		}
		m.result = rawResult
	case rawError != nil:
		e, err := decodeErrorObject(rawError)
		if err != nil {
			return nil, &envelopeError{reason: fmt.Sprintf("response %s: %v", valueExcerpt(rawID), err)}
		}
		m.err = e
	default:
		return nil, &envelopeError{reason: fmt.Sprintf(`response %s carries neither "result" nor "error"`, valueExcerpt(rawID))}
	}
	return m, nil
}

// fail builds an envelope error, keeping the id when the frame is a request whose id
// is valid so that the error can be answered.
func (m *message) fail(rawID, rawMethod json.RawMessage, reason string) error {
	e := &envelopeError{reason: reason}
	if rawID != nil && rawMethod != nil {
		if id, err := parseID(rawID); err == nil {
			e.id = id
		}
	}
	return e
}

// decodeErrorObject decodes {code, message, data?} strictly.
func decodeErrorObject(raw json.RawMessage) (*Error, error) {
	fields, err := splitObject(raw)
	if err != nil {
		return nil, fmt.Errorf(`"error": %v`, err)
	}
	e := &Error{}
	var haveCode, haveMessage bool
	for _, f := range fields {
		switch f.key {
		case "code":
			n, err := strconv.ParseInt(string(f.value), 10, 64)
			if err != nil || haveCode {
				return nil, fmt.Errorf(`"error.code" must be one integer, got %s`, valueExcerpt(f.value))
			}
			e.Code, haveCode = n, true
		case "message":
			if err := json.Unmarshal(f.value, &e.Message); err != nil || haveMessage {
				return nil, fmt.Errorf(`"error.message" must be one string, got %s`, valueExcerpt(f.value))
			}
			haveMessage = true
		case "data":
			if e.Data != nil {
				return nil, fmt.Errorf(`duplicate field "error.data"`)
			}
			e.Data = f.value
		default:
			return nil, fmt.Errorf("unknown field %q in the error object", f.key)
		}
	}
	if !haveCode || !haveMessage {
		return nil, fmt.Errorf(`the error object needs "code" and "message"`)
	}
	return e, nil
}

// appendRequest encodes a request (or, with a zero id, a notification).
func appendRequest(b []byte, id ID, method string, params json.RawMessage) ([]byte, error) {
	b = append(b, `{"jsonrpc":"2.0"`...)
	if !id.IsZero() {
		var err error
		b = append(b, `,"id":`...)
		if b, err = id.appendJSON(b); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"method":`...)
	b = appendString(b, method)
	if params != nil {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}'), nil
}

// appendResult encodes a successful response.
func appendResult(b []byte, id ID, result json.RawMessage) []byte {
	b = appendResultHead(b, id)
	b = append(b, result...)
	return append(b, '}')
}

// appendResultHead encodes a successful response up to its result value.
func appendResultHead(b []byte, id ID) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b, _ = id.appendJSON(b) // ids we answer were decoded, so they are valid
	return append(b, `,"result":`...)
}

// appendError encodes an error response; a zero id encodes as null.
func appendError(b []byte, id ID, e *Error) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b, _ = id.appendJSON(b)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, e.Code, 10)
	b = append(b, `,"message":`...)
	b = appendString(b, e.Message)
	if data := compactJSON(e.Data); len(data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, `}}`...)
}
