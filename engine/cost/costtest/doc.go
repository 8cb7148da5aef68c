// Package costtest checks a refusal's advice against the model's own
// estimate, for the models' tests: every way out the message names (one
// parameter, or two together) lies in the parameters' ranges and brings
// the run within the budget.
package costtest
