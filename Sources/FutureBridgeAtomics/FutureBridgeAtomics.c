// Only the header: every function is `static inline`.
