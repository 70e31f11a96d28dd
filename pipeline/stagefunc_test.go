package pipeline_test

import "github.com/snowluma/snowluma-mcp/pipeline"

// stageFunc makes a stage of a wrapping function, for the tests and
// examples here (stages/stagetest has the same for the stages' tests).
type stageFunc func(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler

func (f stageFunc) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler { return f(t, next) }
