"""Orders checked against the world before the deadline (section 4): who may
order which ship (sight, assign), the administrative orders (admin), the
operations of the EiA rules (operation) and the whole order set (orders)."""
