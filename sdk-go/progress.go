package octet

import (
	"context"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ProgressStatus is a status progress event; nil numbers are left out.
type ProgressStatus struct {
	Message string
	Current *float64
	Total   *float64
	Unit    string
}

// Steps is a ProgressStatus for "step current of total".
func Steps(message string, current, total int, unit string) ProgressStatus {
	c, t := float64(current), float64(total)
	return ProgressStatus{Message: message, Current: &c, Total: &t, Unit: unit}
}

// Progress emits a status event for the ambient request ($/progress, sequence from
// 1 per request). Needs negotiated request_progress.
func (e *Extension) Progress(ctx context.Context, p ProgressStatus) error {
	ev := map[string]any{"type": "status"}
	if p.Message != "" {
		ev["message"] = p.Message
	}
	if p.Current != nil {
		if *p.Current < 0 {
			return localError("progress current must be ≥ 0")
		}
		ev["current"] = *p.Current
	}
	if p.Total != nil {
		if *p.Total < 0 {
			return localError("progress total must be ≥ 0")
		}
		ev["total"] = *p.Total
	}
	if p.Unit != "" {
		ev["unit"] = p.Unit
	}
	return e.progress(ctx, protocol.FeatureRequestProgress, ev)
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

func (e *Extension) progress(ctx context.Context, feature protocol.Feature, event map[string]any) error {
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
