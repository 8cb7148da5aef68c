package goal_test

import (
	"fmt"
	"strings"

	"commlab/engine/goal"
)

// A ping-pong: rank 0 sends 1 KiB to rank 1, which answers once it has
// the message, with LogGOPSim's default machine. Each way costs o + L =
// 4000 ns to arrive and o + 1023·G = 7638 ns to take off the network.
func ExampleRun() {
	text := `num_ranks 2
rank 0 {
l1: send 1024b to 1 tag 0
l2: recv 1024b from 1 tag 0
l2 requires l1
}
rank 1 {
l1: recv 1024b from 0 tag 0
l2: send 1024b to 0 tag 0
l2 requires l1
}
`
	s, err := goal.Read(strings.NewReader(text), "pingpong.goal", goal.ReadOptions{Labels: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := goal.Run(s, goal.Default(), goal.Noise{}, goal.Options{Record: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("end %d ns on rank %d, %d messages\n", r.End, r.EndRank, r.Messages)
	for _, st := range r.Critical {
		fmt.Printf("%-7s rank %d  %5d..%5d ns\n", st.Kind, st.Rank, st.Start, st.End)
	}
	// Output:
	// end 23276 ns on rank 0, 2 messages
	// flight  rank 0      0.. 4000 ns
	// receive rank 1   4000..11638 ns
	// flight  rank 1  11638..15638 ns
	// receive rank 0  15638..23276 ns
}
