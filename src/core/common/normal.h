// Standard normal quantiles, for turning a confidence level into a z-score.
#pragma once

namespace sketch {

// z such that P(|Z| <= z) = confidence for a standard normal Z; 0 < confidence < 1.
double two_sided_z(double confidence);

}  // namespace sketch
