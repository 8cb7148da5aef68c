package scene

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBuildErrorsNameNoScene: a scene's own errors do not say which scene
// they come from; whoever shows them does (the page shows them on the
// scene's page, gen-anim writes "scene NAME: ..."), so a message names the
// scene once. Errors that started "tcc scene: " or "overlay scene: " read
// "scene tcc: tcc scene: ..." in gen-anim. The test reads every scene
// package's error texts (errf.Errorf, fmt.Errorf and errors.New) and refuses one that
// says "scene:".
func TestBuildErrorsNameNoScene(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !(sel.Sel.Name == "Errorf" || sel.Sel.Name == "New") {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "fmt" && x.Name != "errors" && x.Name != "errf" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			checked++
			if s, _ := strconv.Unquote(lit.Value); strings.Contains(s, "scene:") {
				t.Errorf("%s: error %q names its scene; its caller does", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
	if checked < 10 {
		t.Errorf("read %d error texts in the scene packages; the test reads the wrong place", checked)
	}
}
