// Package docstest tests the repository's Markdown pages (README.md and docs/): every relative
// link reaches a file or directory of the repository, and every #fragment a heading of the page
// it names, so that a page moved or a heading renamed cannot leave a dead link behind; the front
// page links every docs/ page and starts with its two commands. Its one function, Pages, lists
// the pages; internal/consumertest checks their code blocks over the same list.
package docstest
