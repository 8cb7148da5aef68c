//go:build !js

package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOneParamError: a parameter out of range is engine/param's Error
// everywhere (issue 23 found six identical copies, one per engine
// package), and its field is found with errors.As, never by cutting the
// message's text (gen-report's ParamError did strings.Cut(msg, " = ")).
// It fails on
//
//   - a type named RangeError, or a struct of exactly the string fields
//     Field, Value and Want, anywhere but engine/param;
//   - outside tests, a strings function given a piece of the Error's
//     message (" = ", "out of range", ": want ") to look for;
//   - outside tests, a strings function that splits or searches an
//     error's text (err.Error(), or a variable set from it), but in the
//     files listed below with the reason they may.
func TestOneParamError(t *testing.T) {
	// Files that read an error's text because the text is what they check.
	mayReadErrorText := map[string]string{
		"engine/cost/costtest/costtest.go": "checks the ways out a budget's refusal names, which are text",
		"cmd/gen-report/main.go":           "names the command once: a message that starts with gen-report keeps its own",
	}
	splitters := map[string]bool{
		"Cut": true, "CutPrefix": true, "CutSuffix": true, "Split": true, "SplitN": true, "SplitAfter": true,
		"Index": true, "LastIndex": true, "Fields": true, "HasPrefix": true, "HasSuffix": true,
	}
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		isTest := strings.HasSuffix(rel, "_test.go")
		at := func(n ast.Node) string { return rel + ":" + strconv.Itoa(fset.Position(n.Pos()).Line) }
		// errText holds the variables set from an Error() call in the
		// function being read.
		errText := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				clear(errText) // a name is an error's text only in the function that set it
			case *ast.TypeSpec:
				if strings.HasPrefix(rel, "engine/param/") {
					return true
				}
				if n.Name.Name == "RangeError" {
					t.Errorf("%s: type RangeError: a parameter out of range is engine/param's Error", at(n))
				}
				if st, ok := n.Type.(*ast.StructType); ok && isParamErrorShape(st) {
					t.Errorf("%s: type %s copies param.Error's fields (Field, Value, Want): use engine/param's Error", at(n), n.Name.Name)
				}
			case *ast.AssignStmt:
				for i, r := range n.Rhs {
					if isErrorCall(r) && i < len(n.Lhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							errText[id.Name] = true
						}
					}
				}
			case *ast.CallExpr:
				if isTest {
					return true
				}
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "strings" {
					return true
				}
				for _, a := range n.Args {
					if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						if strings.Contains(s, " = ") || strings.Contains(s, "out of range") || strings.Contains(s, ": want ") {
							t.Errorf("%s: strings.%s(..., %s) reads a parameter error's message: use errors.As on *param.Error", at(n), sel.Sel.Name, lit.Value)
						}
					}
				}
				if !splitters[sel.Sel.Name] || len(n.Args) == 0 || mayReadErrorText[rel] != "" {
					return true
				}
				first := n.Args[0]
				id, isIdent := first.(*ast.Ident)
				if isErrorCall(first) || isIdent && errText[id.Name] {
					t.Errorf("%s: strings.%s splits an error's text: find what you need with errors.As", at(n), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
}

// isErrorCall reports whether e is a call x.Error().
func isErrorCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Error"
}

// isParamErrorShape reports whether st is struct{ Field, Value, Want string }.
func isParamErrorShape(st *ast.StructType) bool {
	var names []string
	for _, f := range st.Fields.List {
		if id, ok := f.Type.(*ast.Ident); !ok || id.Name != "string" {
			return false
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return strings.Join(names, ",") == "Field,Value,Want"
}
