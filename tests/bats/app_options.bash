# Shared by the bats suites that run the reference mini-apps (apps.bats, replay.bats).

# small strong-scaling options valid at 1, 4, 9 and 16 ranks
args_of() {
	case $1 in
	stencil1d) echo "--size 1440 --iterations 4 --allreduce-every 3 --compute 2" ;;
	stencil2d) echo "--size 48 --iterations 5 --allreduce-every 2" ;;
	stencil3d) echo "--size 12 --iterations 4 --allreduce-every 4" ;;
	sweep) echo "--size 12 --iterations 2 --kblock 5" ;;
	cg) echo "--size 48 --iterations 4" ;;
	ft) echo "--size 144 --iterations 3" ;;
	is) echo "--size 5000 --iterations 3 --imbalance 1" ;;
	mw) echo "--size 60 --iterations 2 --compute 20" ;;
	phases) echo "--size 144 --iterations 6 --switch-at 3" ;;
	stencil2d_f) echo "--size 48 --iterations 5 --allreduce-every 2" ;;
	esac
}
