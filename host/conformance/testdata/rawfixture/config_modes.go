package main

// modeConfigureNoReason refuses configure without a reason, which the ConfigureResult
// contract forbids (config.configure_answered).
const modeConfigureNoReason = "configure-no-reason"

// configure answers configure: it takes any settings (the fixture declares only optional
// ones), or, in modeConfigureNoReason, refuses them without saying why.
func (c *conn) configure(f frame) {
	if mode == modeConfigureNoReason {
		c.respond(f.ID, map[string]any{"accepted": false}, nil)
		return
	}
	c.respond(f.ID, map[string]any{"accepted": true}, nil)
}
