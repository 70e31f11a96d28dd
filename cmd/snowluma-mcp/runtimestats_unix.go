//go:build !windows

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// The runtime-stats hook (runtimestats.go): each SIGUSR1 writes one stats
// line, when the variable asks for it.
func init() {
	if os.Getenv(statsEnv) != "1" {
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	go func() {
		for range ch {
			writeStats(os.Stderr)
		}
	}()
}
