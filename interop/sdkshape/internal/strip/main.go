// Command strip removes, from the hand-written files of a Go package directory, the
// declarations that mcpgen's output (the files that start with its header) and the named
// companion files declare again, with the hand-written methods of the same name (a replaced
// type's codecs), the comments inside them and the imports only they used. Nothing else changes.
//
//	strip [-keep companion.go,...] DIR
//
// With -measure it changes nothing and prints how much of the API of the untouched package
// ORIG's named files the generated output in DIR declares (see decls.Measure):
//
//	strip -measure -orig ORIG -files protocol.go,content.go [-keep companion.go] DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/interop/sdkshape/internal/decls"
)

func main() {
	keep := flag.String("keep", "", "comma-separated hand-written files of DIR that replace declarations too (a companion)")
	measure := flag.Bool("measure", false, "measure instead of stripping")
	orig := flag.String("orig", "", "with -measure: the untouched package's directory")
	files := flag.String("files", "protocol.go,content.go", "with -measure: the files of ORIG whose exported types are measured")
	verbose := flag.Bool("v", false, "with -measure: list the missing types and the lost fields")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: strip [-keep files] DIR\n       strip -measure -orig ORIG [-files files] [-keep files] [-v] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), split(*keep), *measure, *orig, split(*files), *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "strip:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func run(dir string, keep []string, measure bool, orig string, files []string, verbose bool) error {
	p, err := decls.Load(dir)
	if err != nil {
		return err
	}
	if measure {
		if orig == "" {
			return fmt.Errorf("-measure needs -orig")
		}
		o, err := decls.Load(orig)
		if err != nil {
			return err
		}
		api, err := decls.ExportedTypes(o, files...)
		if err != nil {
			return err
		}
		m := decls.Measure(api, p, keep)
		fmt.Println(m)
		if verbose {
			fmt.Printf("missing types: %s\n", strings.Join(m.Missing, ", "))
			for _, l := range m.Lost {
				fmt.Println("lost:", l)
			}
		}
		return nil
	}
	removed, err := decls.Strip(p, keep)
	if err != nil {
		return err
	}
	for _, r := range removed {
		fmt.Printf("%s: %d lines -> %d, removed %s\n", r.File, r.LinesBefore, r.LinesAfter, strings.Join(r.Names, " "))
	}
	return nil
}
