; box.ctl — a small 3-D FDTD run for MEEP (bench/extrap-apps.bench): a dielectric cube in a
; 4x4x4 cell with PML walls, a Gaussian Ez pulse, 24 time steps at resolution 6. MEEP splits
; the cell into one chunk per rank itself.
(set! geometry-lattice (make lattice (size 4 4 4)))
(set! geometry (list (make block (center 0 0 0) (size 1 1 1) (material (make dielectric (epsilon 12))))))
(set! sources (list (make source (src (make gaussian-src (frequency 0.5) (fwidth 0.2))) (component Ez) (center -1 0 0))))
(set! pml-layers (list (make pml (thickness 0.5))))
(set! resolution 6)
(run-until 2)
