package server

import (
	"context"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverMethods keeps a panic in any method handler from killing the
// process; tool calls already recover inside their pipeline, so this only
// catches what lies outside it. SDK contract test:
// TestSDKPanicInAToolHandlerEndsTheProcess.
func recoverMethods(log io.Writer) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(log, "snowluma-mcp recovered a panic in method=%s\n", method)
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}
				}
			}()
			return next(ctx, method, req)
		}
	}
}
