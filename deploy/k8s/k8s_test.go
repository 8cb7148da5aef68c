package k8s_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/yaml"
)

// decode reads every document of a manifest strictly, as the API server
// does with fieldValidation=Strict, into the Kubernetes API's Go types
// (k8s.io/api): a field the schema does not have, a field given twice, a
// value of the wrong type or an unknown kind is an error.
func decode(manifest []byte) ([]runtime.Object, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, batchv1.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	dec := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	r := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(manifest)))
	var objs []runtime.Object
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		obj, _, err := dec.Decode(doc, nil, nil)
		if err != nil {
			return nil, err
		}
		objs = append(objs, obj)
	}
}

// stripComments drops the YAML comment lines (a document of comments only
// is no object).
func stripComments(doc []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// TestReportManifest validates deploy/k8s/report.yaml against the
// Kubernetes API's types, strictly, and checks that its parts agree: an
// Indexed Job whose completions are the shard count its script and the
// merge's name, the index as the shard number, one shared volume claimed
// by a PersistentVolumeClaim of the manifest, and a merge Job.
func TestReportManifest(t *testing.T) {
	manifest, err := os.ReadFile("report.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := decode(manifest)
	if err != nil {
		t.Fatalf("report.yaml: %v", err)
	}
	var pvc *corev1.PersistentVolumeClaim
	jobs := map[string]*batchv1.Job{}
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.PersistentVolumeClaim:
			pvc = o
		case *batchv1.Job:
			jobs[o.Name] = o
		default:
			t.Errorf("report.yaml holds a %T, not a PersistentVolumeClaim or a Job", o)
		}
		if errs := validation.IsDNS1123Subdomain(o.(interface{ GetName() string }).GetName()); len(errs) > 0 {
			t.Errorf("name %q: %v", o.(interface{ GetName() string }).GetName(), errs)
		}
	}
	shards, merge := jobs["commlab-shards"], jobs["commlab-merge"]
	if pvc == nil || shards == nil || merge == nil || len(objs) != 3 {
		t.Fatalf("report.yaml holds %d objects, want the PersistentVolumeClaim and the Jobs commlab-shards and commlab-merge", len(objs))
	}
	if !hasAccess(pvc, corev1.ReadWriteMany) {
		t.Errorf("the claim %s is not ReadWriteMany: the shards run on many nodes", pvc.Name)
	}

	spec := shards.Spec
	if mode := spec.CompletionMode; mode == nil || *mode != batchv1.IndexedCompletion {
		got := "unset"
		if mode != nil {
			got = string(*mode)
		}
		t.Errorf("commlab-shards: completionMode is %s, want Indexed: the pods would not know their shard", got)
	}
	if spec.Completions == nil || spec.Parallelism == nil || *spec.Parallelism > *spec.Completions {
		t.Fatalf("commlab-shards: completions %v, parallelism %v", spec.Completions, spec.Parallelism)
	}
	n := int(*spec.Completions)
	if spec.BackoffLimitPerIndex != nil && spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("commlab-shards: backoffLimitPerIndex needs restartPolicy Never, not %q", spec.Template.Spec.RestartPolicy)
	}
	shard := onlyContainer(t, shards.Spec.Template.Spec.Containers)
	script := strings.Join(append(shard.Command, shard.Args...), " ")
	for _, want := range []string{"$((JOB_COMPLETION_INDEX + 1))", `-shard "$k/` + strconv.Itoa(n) + `"`, "status -shards " + strconv.Itoa(n) + " -missing"} {
		if !strings.Contains(script, want) {
			t.Errorf("commlab-shards' script does not say %q (completions = %d):\n%s", want, n, script)
		}
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := shard.Resources.Requests[r]; !ok {
			t.Errorf("commlab-shards requests no %s: the scheduler cannot place it", r)
		}
	}

	wait := onlyContainer(t, merge.Spec.Template.Spec.InitContainers)
	mergeC := onlyContainer(t, merge.Spec.Template.Spec.Containers)
	for _, c := range []struct {
		what, script, want string
	}{
		{"the merge's wait", strings.Join(wait.Args, " "), "status -shards " + strconv.Itoa(n) + " -missing"},
		{"the merge", strings.Join(mergeC.Args, " "), "part-*-of-" + strconv.Itoa(n) + ".json"},
	} {
		if !strings.Contains(c.script, c.want) {
			t.Errorf("%s does not say %q (completions = %d):\n%s", c.what, c.want, n, c.script)
		}
	}
	if merge.Spec.ActiveDeadlineSeconds == nil {
		t.Error("commlab-merge waits without a deadline")
	}

	// One image for every container: parts of different builds never merge.
	images := map[string]bool{shard.Image: true, wait.Image: true, mergeC.Image: true}
	if len(images) != 1 {
		t.Errorf("the containers run %d images, want one build for all: %v", len(images), images)
	}
	// Every pod mounts the claim at /data, where the scripts look.
	for _, pod := range []corev1.PodSpec{shards.Spec.Template.Spec, merge.Spec.Template.Spec} {
		claimed := map[string]bool{}
		for _, v := range pod.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == pvc.Name {
				claimed[v.Name] = true
			}
		}
		for _, c := range append(pod.InitContainers, pod.Containers...) {
			if !mountsAt(c, claimed, "/data") {
				t.Errorf("container %s does not mount the claim %s at /data", c.Name, pvc.Name)
			}
		}
	}
}

// TestDecodeRefuses: the validation bites on what a hand edit gets wrong.
func TestDecodeRefuses(t *testing.T) {
	manifest, err := os.ReadFile("report.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"misspelt field", "completionMode: Indexed", "completionMod: Indexed", `unknown field "spec.completionMod"`},
		{"wrong type", "completions: 8", "completions: eight", "completions"},
		{"field twice", "  parallelism: 8\n", "  parallelism: 8\n  parallelism: 4\n", `key "parallelism" already set`},
		{"unknown kind", "kind: PersistentVolumeClaim", "kind: PersistentVolumeClain", "PersistentVolumeClain"},
		{"bad quantity", "storage: 2Gi", "storage: 2 GB", "quantities must match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(manifest, []byte(tc.from)) {
				t.Fatalf("report.yaml has no %q to change", tc.from)
			}
			_, err := decode(bytes.Replace(manifest, []byte(tc.from), []byte(tc.to), 1))
			if err == nil || !regexp.MustCompile(regexp.QuoteMeta(tc.want)).MatchString(err.Error()) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

func onlyContainer(t *testing.T, cs []corev1.Container) corev1.Container {
	t.Helper()
	if len(cs) != 1 {
		t.Fatalf("%d containers, want 1", len(cs))
	}
	return cs[0]
}

func hasAccess(pvc *corev1.PersistentVolumeClaim, mode corev1.PersistentVolumeAccessMode) bool {
	for _, m := range pvc.Spec.AccessModes {
		if m == mode {
			return true
		}
	}
	return false
}

func mountsAt(c corev1.Container, volumes map[string]bool, path string) bool {
	for _, m := range c.VolumeMounts {
		if volumes[m.Name] && m.MountPath == path {
			return true
		}
	}
	return false
}
