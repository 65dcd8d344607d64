package reference

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// deliveries is the reference host's host.Deliveries: each send and its final receipt in
// the state store (store.SendRow, store.ReceiptRow), secrets redacted, and the progress
// events the extension streamed about each send counted from the router's events.
type deliveries struct {
	h *Host

	mu   sync.Mutex
	open map[streamKey]*delivery // sends written and not yet settled, by request id
}

// streamKey names a host request: what a progress event's parent_request_id refers to.
type streamKey struct {
	instance   string
	generation int64
	id         string // the id's JSON
}

type delivery struct {
	ds     *deliveries
	id     int64
	input  string // sha256 of the stored input
	key    streamKey
	keyed  atomic.Bool
	events atomic.Int64
}

func newDeliveries(h *Host) *deliveries { return &deliveries{h: h, open: map[streamKey]*delivery{}} }

// Sent records the send with its input as written, redacted: an input that held a brokered
// secret is stored without it and marked, and recovery refuses to replay it (a replay of
// the placeholder would be a different call).
func (ds *deliveries) Sent(ctx context.Context, s host.Send) (host.Delivery, error) {
	clean := ds.h.red.Frame(s.Params)
	redacted := ds.h.red.Holds(s.Params)
	row := store.SendRow{SessionID: ds.h.sessionID, Extension: s.Extension, Identity: s.Identity, Dir: s.Dir, InstanceID: s.InstanceID,
		Generation: s.Generation, Method: s.Method, Name: s.Name, Input: clean, InputSHA256: digest(clean), InputRedacted: redacted,
		RecoveryOf: s.RecoveryOf, SentAtMS: s.At.UnixMilli()}
	id, err := ds.h.store.RecordSend(context.WithoutCancel(ctx), row)
	if err != nil {
		return nil, err
	}
	return &delivery{ds: ds, id: id, input: row.InputSHA256, key: streamKey{instance: s.InstanceID, generation: s.Generation}}, nil
}

func (d *delivery) Written(id jsonrpc.ID) {
	b, _ := id.MarshalJSON()
	d.key.id = string(b)
	d.ds.mu.Lock()
	d.ds.open[d.key] = d
	d.ds.mu.Unlock()
	d.keyed.Store(true)
}

// Final records the receipt. The store write does not depend on the caller's context: a
// cancelled call still gets its receipt.
func (d *delivery) Final(r host.Receipt) {
	if d.keyed.Load() {
		d.ds.mu.Lock()
		delete(d.ds.open, d.key)
		d.ds.mu.Unlock()
	}
	row := store.ReceiptRow{SendID: d.id, Outcome: r.Outcome, ErrorCode: r.ErrorCode, RequestID: d.key.id, InputSHA256: d.input,
		StreamEvents: d.events.Load(), DurationMS: r.Duration.Milliseconds(), SettledAtMS: time.Now().UnixMilli()}
	if r.Result != nil {
		row.ResultSHA256 = digest(d.ds.h.red.Frame(r.Result))
	}
	if r.Err != nil {
		row.Detail = d.ds.h.red.Text(r.Err.Error())
	}
	if err := d.ds.h.store.RecordReceipt(context.Background(), row); err != nil {
		d.ds.h.warnf("receipt of send %d: %v", d.id, err)
	}
}

// progress counts an accepted progress event towards the receipt of the send it names.
func (ds *deliveries) progress(ev services.Event) {
	p, ok := ev.Payload.(services.Progress)
	if !ok {
		return
	}
	b, _ := p.Parent.MarshalJSON()
	ds.mu.Lock()
	d := ds.open[streamKey{instance: ev.InstanceID, generation: ev.Generation, id: string(b)}]
	ds.mu.Unlock()
	if d != nil {
		d.events.Add(1)
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
