package octet

import (
	"context"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ProgressStatus is a status progress event: the wire type. Nil fields are left out; the
// generated MarshalJSON writes Type ("status").
type ProgressStatus = protocol.ProgressStatus

// Steps is a ProgressStatus for "step current of total" (an empty message or unit is left
// out).
func Steps(message string, current, total int, unit string) ProgressStatus {
	return ProgressStatus{Message: nonEmpty(message), Current: Ptr(float64(current)), Total: Ptr(float64(total)), Unit: nonEmpty(unit)}
}

// StatusMessage is a ProgressStatus that carries only message.
func StatusMessage(message string) ProgressStatus { return ProgressStatus{Message: Ptr(message)} }

// Progress emits a status event for the ambient request ($/progress, sequence from
// 1 per request). Needs negotiated request_progress.
func (e *Extension) Progress(ctx context.Context, p ProgressStatus) error {
	if p.Current != nil && *p.Current < 0 {
		return localError("progress current must be ≥ 0")
	}
	if p.Total != nil && *p.Total < 0 {
		return localError("progress total must be ≥ 0")
	}
	return e.progress(ctx, protocol.FeatureRequestProgress, p)
}

// ProgressOutput streams output text (stream "stdout" or "stderr"; utf8).
func (e *Extension) ProgressOutput(ctx context.Context, stream, data string) error {
	if stream != "stdout" && stream != "stderr" {
		return localError("progress output stream %q is not stdout or stderr", stream)
	}
	return e.progress(ctx, protocol.FeatureRequestProgress, map[string]any{"type": "output", "stream": stream, "encoding": "utf8", "data": data})
}

// ProgressDecoration labels the running call (needs progress_decoration as well).
func (e *Extension) ProgressDecoration(ctx context.Context, label, detail string) error {
	if n := utf8.RuneCountInString(label); n == 0 || n > 64 {
		return localError("decoration label must have 1..64 characters, got %d", n)
	}
	if utf8.RuneCountInString(detail) > 256 {
		return localError("decoration detail exceeds 256 characters")
	}
	if _, err := e.need("ProgressDecoration", protocol.FeatureProgressDecoration); err != nil {
		return err
	}
	ev := map[string]any{"type": "decoration", "label": label}
	if detail != "" {
		ev["detail"] = detail
	}
	return e.progress(ctx, protocol.FeatureRequestProgress, ev)
}

// progress sends one event (a ProgressStatus or a map of another kind) for the ambient request.
func (e *Extension) progress(ctx context.Context, feature protocol.Feature, event any) error {
	if _, err := e.need("Progress", feature); err != nil {
		return err
	}
	st, err := e.parent(ctx, "Progress")
	if err != nil {
		return err
	}
	st.progressMu.Lock()
	defer st.progressMu.Unlock()
	st.progress++
	return e.conn.Notify(protocol.MethodProgress, map[string]any{"parent_request_id": st.id, "sequence": st.progress, "event": event})
}
