package services

import "time"

// Limits from wire.md §8. This is the one place the services name them;
// switch to sdk-go/protocol constants once the generated package exports
// them all.
const (
	maxIDBytes = 256

	maxToolsPerRequest = 256
	maxCatalogTools    = 256
	retainedCatalogs   = 8
	maxToolDescChars   = 4096

	notificationMaxChars = 4096
	statusTextMaxChars   = 1024

	presentationMaxBytes       = 262144
	presentationMaxActivities  = 128
	presentationMaxNodes       = 256
	presentationMaxActions     = 64
	presentationMaxDepth       = 16
	presentationMaxDetailBytes = 65536
	presentationPerSecond      = 32

	artifactInlineMaxBytes     = 262144
	artifactMaxBytes           = 20971520
	artifactGenerationMaxBytes = 67108864
	artifactGenerationMaxCount = 64

	inputPromptMaxBytes = 16384
	inputValueMaxBytes  = 262144

	secretNameMaxBytes  = 64
	secretValueMaxBytes = 65536

	agentMessageMaxBytes = 131072
	agentMaxActive       = 8
	agentMaxRetained     = 32
	agentWaitMinMS       = 1
	agentWaitMaxMS       = 60000
	agentMaxTokensMin    = 1000
	agentMaxTokensMax    = 64000
	agentModelsMaxLimit  = 200

	kvKeyMaxBytes   = 512
	kvValueMaxBytes = 262144
	kvMaxBatch      = 256
	kvListMax       = 1000
	kvListDefault   = 100

	approvalTokenTTL = 60000 * time.Millisecond

	maxSafeInteger = 1<<53 - 1
)

// Error codes (wire.md §1).
const (
	codeInvalidRequest     = -32600
	codeMethodNotFound     = -32601
	codeInvalidParams      = -32602
	codeInternal           = -32603
	codeRequestCancelled   = -32800
	codeServiceUnavailable = -32002
	codeSecretUnavailable  = -32004
	codeKVConflict         = -32005
)
