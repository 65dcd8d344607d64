package process

// KindStateDowngrade: the extension's stored KV data is at a newer kv_version than its
// manifest's [state] declares (a newer release wrote it); starting it could misread or
// corrupt that data, so the host refuses before spawning.
const KindStateDowngrade Kind = "state_downgrade"
