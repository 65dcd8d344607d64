package octet

// The service objects (ext.KV, ext.UI, ext.Presentation, ext.Progress, ext.Artifacts,
// ext.Policy, ext.Secrets, ext.Catalog, ext.Agents) are generated from methods.json's sdk
// rows into services_gen.go; each operation takes its positional arguments, then at most
// one options struct, and sends through Send or Notify. The conveniences of
// schema/sdk-surface.json are written by hand beside them: kv.go (Scan, Put, Delete,
// Transaction), progress.go (Output, Decoration) and catalog.go (Register, Unregister,
// Replace, Revision: they carry the tools' handlers).
