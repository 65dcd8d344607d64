package octet

import (
	"context"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ProgressStatus is a status progress event: the wire type. Nil fields are left out; the
// generated MarshalJSON writes Type ("status").
type ProgressStatus = protocol.ProgressStatus

// Steps is a status event for "step current of total" (an empty message or unit is left
// out), for ext.Progress.Report.
func Steps(message string, current, total int, unit string) protocol.ProgressEvent {
	return Status(ProgressStatus{Message: nonEmpty(message), Current: Ptr(float64(current)), Total: Ptr(float64(total)), Unit: nonEmpty(unit)})
}

// StatusMessage is a status event that carries only message.
func StatusMessage(message string) protocol.ProgressEvent {
	return Status(ProgressStatus{Message: Ptr(message)})
}

// Status wraps a status as a progress event.
func Status(s ProgressStatus) protocol.ProgressEvent {
	return protocol.ProgressEvent{ProgressStatus: &s}
}

// Output reports a chunk of a stream's output ("stdout" or "stderr", utf8 text) for the
// call in progress (schema/sdk-surface.json progress.output).
func (s *ProgressService) Output(ctx context.Context, stream, data string) error {
	return s.Report(ctx, protocol.ProgressEvent{ProgressOutput: &protocol.ProgressOutput{Stream: stream, Encoding: "utf8", Data: data}})
}

// Decoration labels the call in progress (progress.decoration); it needs the negotiated
// progress_decoration beside request_progress.
func (s *ProgressService) Decoration(ctx context.Context, label, detail string) error {
	if !s.e.HasFeature(string(protocol.FeatureProgressDecoration)) {
		return featureError("Progress.Decoration", protocol.FeatureProgressDecoration)
	}
	return s.Report(ctx, protocol.ProgressEvent{ProgressDecoration: &protocol.ProgressDecoration{Label: label, Detail: nonEmpty(detail)}})
}
