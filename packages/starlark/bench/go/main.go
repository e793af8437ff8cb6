// Command starlark-go runs a Starlark file with go.starlark.net, for the bench's side-by-side
// comparison. It does what go.starlark.net's cmd/starlark does with a file argument (the Debian
// package golang-starlark-dev ships the library without that command): the dialect flags set
// the resolver's options, an error prints its backtrace and exits 1. Unlike cmd/starlark, print()
// writes to stdout (unbuffered, one write per call, as cmd/starlark writes to stderr), so the bench
// can check the output against the workload's expected file.
package main

import (
	"flag"
	"fmt"
	"os"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkjson"
)

func main() {
	flag.BoolVar(&resolve.AllowRecursion, "recursion", false, "allow while statements and recursive functions")
	flag.BoolVar(&resolve.AllowGlobalReassign, "globalreassign", false, "allow reassignment of globals, and if/for/while statements at top level")
	flag.BoolVar(&resolve.AllowSet, "set", true, "allow the set built-in (on by default, as in current go.starlark.net)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: starlark-go [-recursion] [-globalreassign] [-set] FILE")
		os.Exit(2)
	}
	starlark.Universe["json"] = starlarkjson.Module
	thread := &starlark.Thread{
		Name:  "exec " + flag.Arg(0),
		Print: func(_ *starlark.Thread, msg string) { fmt.Fprintln(os.Stdout, msg) },
	}
	if _, err := starlark.ExecFile(thread, flag.Arg(0), nil, nil); err != nil {
		if evalErr, ok := err.(*starlark.EvalError); ok {
			fmt.Fprintln(os.Stderr, evalErr.Backtrace())
		} else {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
}
