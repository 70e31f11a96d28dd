// Package stagetest holds what the tests of the pipeline and of the stages
// share to build stages of their own: production code declares each stage
// as a type in its package, so only tests need a stage made of a function.
package stagetest

import "github.com/snowluma/snowluma-mcp/pipeline"

// Func is a stage made of a name, where it acts, and a wrapping function.
// Its zero Where is pipeline.InWork.
type Func struct {
	StageName string
	Where     pipeline.Acts
	WrapFunc  func(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler
}

// Name implements pipeline.Stage.
func (s Func) Name() string { return s.StageName }

// Acts implements pipeline.Stage.
func (s Func) Acts() pipeline.Acts { return s.Where }

// Wrap implements pipeline.Stage.
func (s Func) Wrap(t *pipeline.Tool, next pipeline.Handler) pipeline.Handler {
	return s.WrapFunc(t, next)
}
