package nbc

import (
	"fmt"
	"math"
	"slices"

	"commlab/engine/trace"
	"commlab/internal/permsort"
)

// mainStep runs rank r's main thread from its current step until it has to
// wait for time to pass or for another thread.
func (m *model) mainStep(r int, now float64) {
	rk := &m.ranks[r]
	p := &m.p
	for {
		st := m.prog[rk.pc]
		switch st.kind {
		case stCreate:
			// Init: create the progress thread. TCC's then waits on the
			// HandleQueue's condition variable; LibNBC's sleeps until a
			// handle comes.
			if rk.sub == 0 {
				rk.sub = 1
				m.setLane(r, 0, trace.Stall, now, "pthread_create (Init)", -1)
				m.sim.Schedule(now+p.ThreadCreate, evMain, int32(r))
				return
			}
		case stIssue:
			h := st.h
			c := &rk.colls[h]
			if p.Method == TCC {
				if rk.sub == 0 {
					m.event(r, now, h, Issue, -1)
					if rk.cnt == p.QueueCap {
						// The ring is full: wait on the condition variable
						// until the progress thread dequeues the head.
						m.event(r, now, h, Block, -1)
						rk.mainBlocked, rk.sub = true, 1
						m.setLane(r, 0, trace.Idle, now, fmt.Sprintf("I_alltoall #%d: queue full", h), h)
						return
					}
				}
				slot := (rk.head + rk.cnt) % p.QueueCap
				rk.queue[slot] = h
				rk.cnt++
				m.event(r, now, h, Enqueue, slot)
				m.closeLane(r, 0, now)
				m.wakeProgress(r, now)
				break
			}
			// LibNBC: NBC_Ialltoall builds the schedule, NBC_Start posts its
			// first round in the caller.
			if rk.sub == 0 {
				m.event(r, now, h, Issue, -1)
				m.event(r, now, h, Start, -1)
				c.issued, c.rounds = true, m.rounds()
				m.track(r, now)
				rk.inLib, rk.sub = true, 1
				m.flush(r, now)
				built := now + p.ScheduleStep*float64(c.rounds*m.opsPerRound())
				end := m.postRound(r, h, 0, 0, built)
				m.setLane(r, 0, trace.Send, now, fmt.Sprintf("NBC_Ialltoall #%d", h), h)
				if math.IsInf(end, 1) {
					rk.cp.wakeMain = true // the copy runs at its share: copyDone wakes us
					return
				}
				m.sim.Schedule(end, evMain, int32(r))
				return
			}
			if rk.libBusy > now {
				m.sim.Schedule(rk.libBusy, evMain, int32(r))
				return
			}
			rk.inLib = false
			m.closeLane(r, 0, now)
			if p.Method == NBCT {
				m.wakeProgress(r, now)
			}
		case stBlocking:
			h := st.h
			c := &rk.colls[h]
			if rk.sub == 0 {
				m.event(r, now, h, Issue, -1)
				m.event(r, now, h, Start, -1)
				c.issued, c.rounds = true, m.rounds()
				m.track(r, now)
				rk.inLib, rk.h, rk.sub = true, h, 1
				m.flush(r, now)
				m.postRound(r, h, 0, 0, now)
				m.setLane(r, 0, trace.Receive, now, fmt.Sprintf("MPI_Alltoall #%d", h), h)
			}
			if !c.done {
				rk.waiting = true
				return
			}
			m.event(r, now, h, WaitCall, -1)
			m.event(r, now, h, WaitReturn, -1)
			rk.inLib, rk.h = false, -1
			m.closeLane(r, 0, now)
		case stWait:
			h := st.h
			c := &rk.colls[h]
			if rk.sub == 0 {
				rk.sub = 1
				m.event(r, now, h, WaitCall, -1)
				if p.Method.Threaded() {
					if !c.done {
						// Wait blocks until the progress thread sets the
						// flag and signals.
						c.mainWaits = true
						m.setLane(r, 0, trace.Idle, now, fmt.Sprintf("Wait #%d", h), h)
						return
					}
				} else {
					// NBC_Wait progresses the schedule until it completes.
					rk.inLib, rk.h = true, h
					m.setLane(r, 0, trace.Receive, now, fmt.Sprintf("NBC_Wait #%d", h), h)
					m.flush(r, now)
				}
			}
			if !c.done {
				rk.waiting = true
				return
			}
			if rk.libBusy > now && rk.inLib {
				m.sim.Schedule(rk.libBusy, evMain, int32(r))
				return
			}
			rk.inLib, rk.h = false, -1
			m.event(r, now, h, WaitReturn, -1)
			m.closeLane(r, 0, now)
		case stCompute:
			if m.commOnly {
				break
			}
			if !m.computeStep(r, now) {
				return
			}
		case stFinalize:
			// Finalize: the queue is empty (every handle was waited on), so
			// signal the progress thread to stop and join it: two hand-offs.
			if rk.sub == 0 {
				rk.sub = 1
				m.event(r, now, -1, FinalizeCall, -1)
				rk.stop = true
				m.setLane(r, 0, trace.Idle, now, "Finalize", -1)
				m.sim.Schedule(now+2*p.MutexHandoff, evMain, int32(r))
				return
			}
			m.event(r, now, -1, FinalizeReturn, -1)
			m.closeLane(r, 0, now)
		case stEnd:
			rk.end, rk.ended = now, true
			if r == 0 && m.rec != nil {
				for l := range m.lanes {
					m.closeLane(0, l, now)
				}
			}
			return
		}
		rk.pc++
		rk.sub = 0
	}
}

// computeStep advances the OpenMP matrix-vector product; false while the
// main thread waits (for its rows, a progress call or the join).
func (m *model) computeStep(r int, now float64) bool {
	rk := &m.ranks[r]
	p := &m.p
	for {
		switch rk.sub {
		case 0: // fork
			rk.forkAt, rk.computeEnd = now, now
			rows := m.rankRows[r]
			rk.rowsMain, rk.rowsDone = threadRows(rows, m.T, 0), 0
			rk.workersLeft = m.T - 1
			m.streamStart(r, now)
			for t := 1; t < m.T; t++ {
				d := m.rowDur(r, t, threadRows(rows, m.T, t))
				if m.shared && t == m.w {
					rk.wStarted, rk.wRemaining = true, d
					if d == 0 {
						rk.wDone = true
						m.streamEnd(r, t, now)
						m.workerDone(r, now)
						continue
					}
					m.reschedule(r, now)
					continue
				}
				if m.rowwise() {
					rk.rowsLeft[t] = threadRows(rows, m.T, t)
					m.nextRows(r, t, now)
					continue
				}
				m.setLane(r, t, trace.Compute, now, "rows", -1)
				m.sim.Schedule(now+d, evWorker, int32(r*m.T+t))
			}
			rk.sub = 1
		case 1: // the main thread's next rows
			if rk.rowsDone == rk.rowsMain {
				rk.computeEnd = max(rk.computeEnd, now)
				m.streamEnd(r, 0, now)
				rk.sub = 4
				if rk.workersLeft == 0 {
					m.join(r, now)
				} else {
					m.setLane(r, 0, trace.Idle, now, "barrier", -1)
				}
				return false
			}
			n := rk.rowsMain - rk.rowsDone
			if p.Method == NBCFTest {
				n = min(n, p.TestEvery)
			}
			if m.interferes || m.memShare && p.Method != NBCFTest {
				// One row at a time: its rate is set at its start. (With
				// NBC_Test calls, a chunk between two calls has one rate,
				// as the other threads' chunks do.)
				n = 1
				m.computeLane(r, 0, now)
			} else if r == 0 && m.rec != nil { // the label costs an allocation per chunk
				m.setLane(r, 0, trace.Compute, now, fmt.Sprintf("rows %d–%d", rk.rowsDone, rk.rowsDone+n), -1)
			}
			rk.rowsDone += n
			rk.sub = 2
			m.sim.Schedule(now+m.rowDur(r, 0, n), evMain, int32(r))
			return false
		case 2: // rows done: a progress call between outer-loop iterations
			if p.Method != NBCFTest || rk.rowsDone == rk.rowsMain {
				rk.sub = 1
				continue
			}
			if m.allTest {
				// Every thread calls: wait for the library's lock.
				start := m.claimTest(r, 0, now)
				if start > now {
					m.setLane(r, 0, trace.Idle, now, "NBC_Test: lock", -1)
				}
				rk.sub = 6
				m.sim.Schedule(start, evMain, int32(r))
				return false
			}
			m.event(r, now, -1, Progress, -1)
			rk.inLib = true
			m.setLane(r, 0, trace.Receive, now, "NBC_Test", -1)
			m.flush(r, now)
			d := p.ProgressCall + p.RequestTest*float64(m.outstanding(r))
			rk.sub = 3
			m.sim.Schedule(max(now+d, rk.libBusy), evMain, int32(r))
			return false
		case 3: // the progress call returns (after any round it posted)
			if rk.libBusy > now {
				m.sim.Schedule(rk.libBusy, evMain, int32(r))
				return false
			}
			rk.inLib = false
			rk.sub = 1
		case 4: // waiting at the join barrier; woken by join
			return false
		case 6: // all threads test: the main thread has the lock
			m.event(r, now, -1, Progress, -1)
			rk.inLib = true
			m.setLane(r, 0, trace.Receive, now, "NBC_Test", -1)
			rk.sub = 7
			m.sim.Schedule(m.testBody(r, 0, now), evMain, int32(r))
			return false
		case 7: // its NBC_Test returns
			rk.inLib = false
			rk.sub = 1
		case 5: // joined
			if r == 0 && m.rec != nil {
				for t := 1; t < m.T; t++ {
					m.closeLane(r, t, now)
				}
			}
			return true
		}
	}
}

// ---- row-wise compute threads (Params.TestThreads, Params.PollInterference) ----

// rowwise reports whether the compute threads run chunk by chunk: to call
// NBC_Test between their rows, or to take a progress thread's interference
// at each row's start.
func (m *model) rowwise() bool { return m.allTest || m.interferes || m.memShare && !m.commOnly }

// slowdown is the factor on a row's time that starts now on rank r: 1 +
// PollInterference while a progress thread polls on its core, else 1.
func (m *model) slowdown(r int) float64 {
	rk := &m.ranks[r]
	if m.interferes && rk.progIn && rk.progSched {
		return 1 + m.p.PollInterference
	}
	return 1
}

// computeLane opens a "rows" span on a lane unless one is open: row-wise
// threads would otherwise record one span per row. A compute thread's own
// NBC_Test calls stay inside its span (thousands of them would swamp a
// trace and its drawing); the main thread's are spans of their own and
// Progress events.
func (m *model) computeLane(r, t int, now float64) {
	if r != 0 || m.rec == nil || m.lanes[t].open && m.lanes[t].kind == trace.Compute {
		return
	}
	label := "rows"
	if m.allTest && t > 0 {
		label = "rows, NBC_Test after each"
	}
	m.setLane(r, t, trace.Compute, now, label, -1)
}

// nextRows starts compute thread t's next chunk of rows (TestEvery rows
// between progress calls, or one row when a progress thread interferes),
// or ends its share at the barrier.
func (m *model) nextRows(r, t int, now float64) {
	rk := &m.ranks[r]
	if rk.rowsLeft[t] == 0 {
		m.setLane(r, t, trace.Idle, now, "barrier", -1)
		m.streamEnd(r, t, now)
		m.workerDone(r, now)
		return
	}
	n := 1
	if m.allTest {
		n = min(rk.rowsLeft[t], m.p.TestEvery)
	}
	rk.rowsLeft[t] -= n
	m.computeLane(r, t, now)
	m.sim.Schedule(now+m.rowDur(r, t, n), evRows, int32(r*m.T+t))
}

// rowsDone: compute thread t finished a chunk. With every thread testing it
// calls NBC_Test between outer-loop iterations (not after its last row),
// first waiting for the library's lock.
func (m *model) rowsDone(r, t int, now float64) {
	rk := &m.ranks[r]
	if !m.allTest || rk.rowsLeft[t] == 0 {
		m.nextRows(r, t, now)
		return
	}
	m.sim.Schedule(m.claimTest(r, t, now), evTestIn, int32(r*m.T+t))
}

// claimTest queues thread t's progress call on rank r's library lock (the
// MPI_THREAD_MULTIPLE global lock, first come first served) and returns
// when it gets it. The call holds it for ProgressCall plus RequestTest per
// outstanding request.
func (m *model) claimTest(r, t int, now float64) float64 {
	rk := &m.ranks[r]
	start := max(now, rk.libBusy)
	rk.callEnd[t] = start + m.p.ProgressCall + m.p.RequestTest*float64(m.outstanding(r))
	rk.libBusy = rk.callEnd[t]
	return start
}

// testIn: worker t is inside NBC_Test.
func (m *model) testIn(r, t int, now float64) {
	m.ranks[r].testers++
	m.sim.Schedule(m.testBody(r, t, now), evTestOut, int32(r*m.T+t))
}

// testBody runs the actions that waited for a thread in the library and
// returns when thread t's call ends: its own cost, or later if it posted
// a round (which queues behind the lock's other holders).
func (m *model) testBody(r, t int, now float64) float64 {
	rk := &m.ranks[r]
	b0 := rk.libBusy
	m.flush(r, now)
	end := rk.callEnd[t]
	if rk.libBusy != b0 {
		end = max(end, rk.libBusy)
	}
	return end
}

// workerDone: one compute thread of rank r finished its rows.
func (m *model) workerDone(r int, now float64) {
	rk := &m.ranks[r]
	rk.workersLeft--
	rk.computeEnd = max(rk.computeEnd, now)
	if rk.workersLeft == 0 && rk.sub == 4 && m.prog[rk.pc].kind == stCompute {
		m.join(r, now)
	}
}

// join ends the parallel region: the barrier and the team's join.
func (m *model) join(r int, now float64) {
	rk := &m.ranks[r]
	rk.sub = 5
	m.setLane(r, 0, trace.Idle, now, "barrier", -1)
	m.sim.Schedule(now+m.p.ForkJoin, evMain, int32(r))
}

// ---- the progress thread ----

// wakeProgress signals the progress thread's condition variable if it is
// waiting: it runs a hand-off later.
func (m *model) wakeProgress(r int, now float64) {
	rk := &m.ranks[r]
	if rk.progAwake || rk.wakePending {
		return
	}
	rk.wakePending = true
	m.sim.Schedule(now+m.p.MutexHandoff, evProgWake, int32(r))
}

func (m *model) progWake(r int, now float64) {
	rk := &m.ranks[r]
	rk.wakePending, rk.progAwake = false, true
	if !m.shared {
		rk.progSched = true
		m.progRun(r, now)
		return
	}
	rk.preempt = true
	m.reschedule(r, now)
}

// progRun: the progress thread is on a core and awake.
func (m *model) progRun(r int, now float64) {
	rk := &m.ranks[r]
	switch m.p.Method {
	case NBCT:
		// LibNBC's thread polls NBC_Progress over the active handles.
		rk.progIn = true
		m.setLane(r, m.progLane, trace.Receive, now, "NBC_Progress loop", -1)
		m.flush(r, now)
		if m.allDone(r) {
			m.progSleep(r, now)
		}
	case TCC:
		if rk.progCur >= 0 {
			rk.progIn = true
			m.setLane(r, m.progLane, trace.Receive, now, fmt.Sprintf("MPI_Alltoall #%d", rk.progCur), rk.progCur)
			m.flush(r, now)
			return
		}
		m.tccNext(r, now)
	}
}

// tccNext is the TCC progress thread's loop: dequeue the head and run the
// blocking collective, or wait on the condition variable while the queue
// is empty.
func (m *model) tccNext(r int, now float64) {
	rk := &m.ranks[r]
	if rk.cnt == 0 {
		m.progSleep(r, now)
		return
	}
	h, slot := rk.queue[rk.head], rk.head
	rk.head = (rk.head + 1) % m.p.QueueCap
	rk.cnt--
	m.event(r, now, h, Dequeue, slot)
	if rk.mainBlocked {
		// A slot is free: signal the issuer waiting in the enqueue.
		rk.mainBlocked = false
		m.sim.Schedule(now+m.p.MutexHandoff, evMain, int32(r))
	}
	c := &rk.colls[h]
	c.issued, c.rounds = true, m.rounds()
	m.track(r, now)
	rk.progCur, rk.progIn = h, true
	m.event(r, now, h, Start, -1)
	m.setLane(r, m.progLane, trace.Receive, now, fmt.Sprintf("MPI_Alltoall #%d", h), h)
	m.postRound(r, h, 0, m.progLane, now)
}

// progSleep: nothing to progress; the thread waits on its condition
// variable and leaves the core.
func (m *model) progSleep(r int, now float64) {
	rk := &m.ranks[r]
	rk.progAwake, rk.progIn = false, false
	m.closeLane(r, m.progLane, now)
	if !m.shared {
		rk.progSched = false
		return
	}
	m.reschedule(r, now)
}

// ---- the oversubscribed core: compute thread w and the progress thread ----

// reschedule decides who runs on the shared core after a change: a woken
// progress thread preempts the compute thread (CFS wake-up preemption);
// two runnable threads alternate every TimeSlice; each switch costs a
// ContextSwitch.
func (m *model) reschedule(r int, now float64) {
	rk := &m.ranks[r]
	if rk.switching {
		return
	}
	wR := rk.wStarted && !rk.wDone
	pR := rk.progAwake
	runnable := func(o int8) bool { return o == ownW && wR || o == ownP && pR }
	other := func(o int8) int8 {
		if o == ownW {
			return ownP
		}
		return ownW
	}
	cur := rk.owner
	want := cur
	switch {
	case cur == ownNone:
		want = ownNone
		if pR {
			want = ownP
		} else if wR {
			want = ownW
		}
	case !runnable(cur):
		want = ownNone
		if runnable(other(cur)) {
			want = other(cur)
		}
	case cur == ownW && pR && rk.preempt:
		want = ownP
	case runnable(other(cur)) && now >= rk.sliceEnd && rk.coreAt <= now:
		want = other(cur)
	}
	rk.preempt = false
	if want == cur {
		if cur != ownNone && runnable(other(cur)) && !(rk.coreAt > now) {
			rk.sliceEnd = now + m.p.TimeSlice
			rk.coreAt = rk.sliceEnd
			m.sim.Schedule(rk.coreAt, evCore, int32(r))
		}
		m.wCompletion(r, now)
		return
	}
	// Take the core from cur.
	switch cur {
	case ownW:
		if rk.wRunning {
			rk.wRemaining = math.Max(0, rk.wRemaining-(now-rk.wSince))
			rk.wRunning = false
		}
	case ownP:
		rk.progSched = false
		if rk.progAwake {
			m.setLane(r, m.progLane, trace.Idle, now, "preempted", -1)
		}
	}
	if want == ownNone {
		rk.owner = ownNone
		return
	}
	if cur == ownNone {
		m.startOn(r, want, now)
		return
	}
	rk.owner, rk.switching, rk.next = ownNone, true, want
	rk.coreAt = now + m.p.ContextSwitch
	m.setLane(r, m.w, trace.Stall, now, "context switch", -1)
	m.sim.Schedule(rk.coreAt, evCore, int32(r))
}

func (m *model) coreEvent(r int, now float64) {
	rk := &m.ranks[r]
	if rk.switching {
		rk.switching = false
		m.startOn(r, rk.next, now)
		return
	}
	m.reschedule(r, now)
}

// startOn gives the shared core to who.
func (m *model) startOn(r int, who int8, now float64) {
	rk := &m.ranks[r]
	rk.owner = who
	rk.coreAt = -1
	if other := (who == ownW && rk.progAwake) || (who == ownP && rk.wStarted && !rk.wDone); other {
		rk.sliceEnd = now + m.p.TimeSlice
		rk.coreAt = rk.sliceEnd
		m.sim.Schedule(rk.coreAt, evCore, int32(r))
	}
	switch who {
	case ownW:
		rk.wRunning, rk.wSince = true, now
		rk.wDoneAt = now + rk.wRemaining
		m.setLane(r, m.w, trace.Compute, now, "rows", -1)
		m.wCompletion(r, now)
	case ownP:
		if rk.wStarted && !rk.wDone {
			m.setLane(r, m.w, trace.Idle, now, "preempted", -1)
		} else {
			m.closeLane(r, m.w, now)
		}
		rk.progSched = true
		m.progRun(r, now)
	}
}

// wCompletion schedules the end of compute thread w's rows if it runs and
// nothing on the shared core comes first. A completion scheduled at every
// start of w would go stale at every preemption and stay in the event list
// until its (late) time: one per time slice, which is what made short
// slices fill the memory (issue 26). The core's next event (a slice end, a
// switch) calls reschedule, which calls this again.
func (m *model) wCompletion(r int, now float64) {
	rk := &m.ranks[r]
	if !rk.wRunning || rk.wPending == rk.wDoneAt {
		return
	}
	if rk.coreAt > now && rk.coreAt < rk.wDoneAt {
		return
	}
	rk.wPending = rk.wDoneAt
	m.sim.Schedule(rk.wDoneAt, evWorker, int32(r*m.T+m.w))
}

// ---- recording ----

// event records rank 0's handle events.
//
//go:noinline
func (m *model) event(r int, t float64, h int, k EventKind, slot int) {
	if r != 0 {
		return
	}
	if k == Issue && h == 0 {
		m.first = t
	}
	if k == WaitReturn {
		m.lastWait = max(m.lastWait, t)
	}
	m.evs = append(m.evs, HandleEvent{Time: t, Handle: h, Kind: k, Slot: slot})
}

// setLane ends rank 0's lane's current span at t and opens a new one.
func (m *model) setLane(r, lane int, k trace.Kind, t float64, label string, step int) {
	if r != 0 || m.rec == nil || lane < 0 {
		return
	}
	m.closeLane(r, lane, t)
	m.lanes[lane] = laneState{open: true, kind: k, start: t, label: label, step: step}
}

//go:noinline
func (m *model) closeLane(r, lane int, t float64) {
	if r != 0 || m.rec == nil || lane < 0 {
		return
	}
	l := &m.lanes[lane]
	if l.open {
		m.rec.AddSpan(lane, l.kind, l.start, t, l.step, l.label)
		l.open = false
	}
}

// overlap is how long rank 0's link moved data while its compute threads
// computed.
func (m *model) overlap() float64 {
	iv := append(append(slices.Clone(m.tx), m.rx...), m.moving...)
	permsort.SortFunc(iv, func(a, b [2]float64) int {
		switch {
		case a[0] < b[0]:
			return -1
		case a[0] > b[0]:
			return 1
		}
		return 0
	})
	rk := &m.ranks[0]
	lo, hi := rk.forkAt, rk.computeEnd
	var sum, curS, curE float64
	open := false
	flushIv := func() {
		if open {
			sum += max(0, min(curE, hi)-max(curS, lo))
		}
	}
	for _, x := range iv {
		if open && x[0] <= curE {
			curE = max(curE, x[1])
			continue
		}
		flushIv()
		curS, curE, open = x[0], x[1], true
	}
	flushIv()
	return sum
}
