package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Recovery is what recovering one recorded send did.
type Recovery struct {
	Send store.SendRow
	// Skipped says why the send was not replayed ("" when it was).
	Skipped string
	// Replay is the replay's own send, whose receipt is the original's recovery receipt;
	// ID 0 when nothing was written (refused before sending).
	Replay  store.SendRow
	Receipt store.ReceiptRow
	Result  json.RawMessage // the replay's answer
	Err     error           // the replay's failure
}

// ErrRecoveryRefused marks a send recovery will not replay (Recovery.Skipped says why).
var ErrRecoveryRefused = errors.New("not replayed")

// Recover replays the persisted original input of send to its extension, which must be
// started in this host (same trusted identity), and records the replay as a send whose
// recovery_of names the original: its final receipt is the recovery receipt. The replay
// goes to the extension as the original went, after the hooks that ran then (their result is
// what was persisted), and through the same catalog check a new call meets now: operator
// denials and the owner's catalog win over an old send.
func (h *Host) Recover(ctx context.Context, send store.SendRow) Recovery {
	out := Recovery{Send: send}
	skip := func(format string, args ...any) Recovery {
		out.Skipped = fmt.Sprintf(format, args...)
		out.Err = fmt.Errorf("%w: %s", ErrRecoveryRefused, out.Skipped)
		return out
	}
	if send.InputRedacted {
		return skip("its input held a brokered secret, which the store never keeps; repeat the call yourself")
	}
	e := h.Extension(send.Extension)
	if e == nil || e.Entry().Manifest == nil || e.Entry().Manifest.Identity() != send.Identity {
		return skip("extension %s from %s is not started in this host", send.Extension, send.Dir)
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(send.Input, &in); err != nil {
		return skip("its stored input is not a JSON object: %v", err)
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(in[k], &s)
		return s
	}
	ctx = host.WithRecoveryOf(ctx, send.ID)
	switch send.Method {
	case protocol.MethodToolCall:
		check := h.CheckModelCall
		if e.Name() == h.Owner() {
			check = h.CheckOwnerCall
		}
		if err := check(e.Name(), send.Name); err != nil {
			out.Err = err
			return out
		}
		out.Result, out.Err = e.Call(ctx, host.ToolCall{Name: send.Name, Arguments: in["arguments"], CallID: str("call_id"), IdempotencyKey: str("idempotency_key")})
	case protocol.MethodCommandExecute:
		var args []string
		_ = json.Unmarshal(in["arguments"], &args)
		out.Result, out.Err = e.ExecuteCommand(ctx, send.Name, args)
	case protocol.MethodHookRun:
		var payload any
		_ = json.Unmarshal(in["payload"], &payload)
		out.Result, out.Err = e.RunHook(ctx, send.Name, payload)
	default:
		return skip("method %s is not one recovery replays", send.Method)
	}
	reps, err := h.store.Recoveries(context.WithoutCancel(ctx), send.ID)
	if err != nil {
		out.Err = errors.Join(out.Err, err)
		return out
	}
	if len(reps) > 0 {
		out.Replay = reps[len(reps)-1]
		out.Receipt, _, _ = h.store.Receipt(context.WithoutCancel(ctx), out.Replay.ID)
	}
	return out
}
