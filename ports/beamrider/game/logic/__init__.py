"""BeamRider's rules, one module per topic (ship: the moves between beams and the ship's shot)."""
