package main

import (
	"os"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
