package services

import (
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Limits (wire.md §8) come from the generated protocol package, so the
// schema stays their one source; the short local names keep call sites
// readable. Values the schema does not name are marked.
const (
	maxIDBytes = protocol.MaxIDBytes

	maxToolsPerRequest = protocol.MaxToolsPerRequest
	maxCatalogTools    = protocol.MaxCatalogTools
	retainedCatalogs   = protocol.RetainedCatalogs
	maxToolDescChars   = 4096 // wire.md §4 ToolDefinition.description

	notificationMaxChars = 4096 // wire.md §6 notification.message
	statusTextMaxChars   = 1024 // wire.md §5 status text

	presentationMaxBytes       = protocol.PresentationMaxBytes
	presentationMaxActivities  = protocol.PresentationMaxActivities
	presentationMaxNodes       = protocol.PresentationMaxNodes
	presentationMaxActions     = protocol.PresentationMaxActions
	presentationMaxDepth       = protocol.PresentationMaxDepth
	presentationMaxDetailBytes = protocol.PresentationMaxDetailBytes
	presentationPerSecond      = protocol.PresentationMaxUpdatesPerSecond

	artifactInlineMaxBytes     = protocol.ArtifactInlineMaxBytes
	artifactMaxBytes           = protocol.ArtifactMaxBytes
	artifactGenerationMaxBytes = protocol.ArtifactGenerationMaxBytes
	artifactGenerationMaxCount = protocol.ArtifactGenerationMaxCount

	inputPromptMaxBytes = protocol.InputPromptMaxBytes
	inputValueMaxBytes  = protocol.InputValueMaxBytes
	inputOptionsMax     = protocol.InputOptionsMax

	secretNameMaxBytes  = protocol.SecretNameMaxBytes
	secretValueMaxBytes = protocol.SecretValueMaxBytes

	agentMessageMaxBytes = protocol.AgentMessageMaxBytes
	agentMaxActive       = protocol.AgentMaxActive
	agentMaxRetained     = protocol.AgentMaxRetained
	agentWaitMinMS       = protocol.AgentWaitMinMS
	agentWaitMaxMS       = protocol.AgentWaitMaxMS
	agentMaxTokensMin    = protocol.AgentMaxTokensMin
	agentMaxTokensMax    = protocol.AgentMaxTokensMax
	agentModelsMaxLimit  = 200 // wire.md §6 agent/models.limit

	kvKeyMaxBytes   = protocol.KVKeyMaxBytes
	kvValueMaxBytes = protocol.KVValueMaxBytes
	kvMaxBatch      = protocol.KVMaxBatch
	kvListMax       = protocol.KVListMax
	kvListDefault   = 100 // wire.md §6 kv.list.limit default

	approvalTokenTTL = protocol.ApprovalTokenTtlMS * time.Millisecond

	maxSafeInteger = 1<<53 - 1
)
