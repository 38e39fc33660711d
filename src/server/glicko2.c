/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Glicko-2, step by step as Glickman's "Example of the Glicko-2 system"
 * numbers them; the new volatility by the Illinois algorithm of its
 * step 5 (a regula falsi that halves the kept end's value).
 */
#include "glicko2.h"

#include <math.h>

/* The Glicko-2 scale is the Glicko scale divided by this (step 2). */
#define GLICKO2_SCALE 173.7178
#define GLICKO2_PI 3.14159265358979323846

Glicko2 glicko2_initial(void)
{
    return (Glicko2){ GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_RD, GLICKO2_INITIAL_VOLATILITY };
}

bool glicko2_provisional(double rd)
{
    return rd > GLICKO2_PROVISIONAL_RD;
}

/* g(phi) of step 3: how much an opponent's uncertainty weakens the game. */
static double weight(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (GLICKO2_PI * GLICKO2_PI));
}

/* E(mu, mu_j, phi_j) of step 3: the expected score against the opponent. */
static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-weight(phi_j) * (mu - mu_j)));
}

/* f(x) of step 5, whose zero is the log of the new volatility squared. */
static double volatility_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double sigma, double delta, double phi, double v, double tau)
{
    double a = log(sigma * sigma);
    double lo = a, hi;
    if (delta * delta > phi * phi + v) {
        hi = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (volatility_f(a - k * tau, delta, phi, v, a, tau) < 0) k++;
        hi = a - k * tau;
    }
    double f_lo = volatility_f(lo, delta, phi, v, a, tau), f_hi = volatility_f(hi, delta, phi, v, a, tau);
    /* The paper's A and B: B moves to C each step; A stays, its value
     * halved when B and C are on the same side of the zero. */
    for (int step = 0; fabs(hi - lo) > GLICKO2_EPSILON && step < 1000; step++) {
        double c = lo + (lo - hi) * f_lo / (f_hi - f_lo), f_c = volatility_f(c, delta, phi, v, a, tau);
        if (f_c * f_hi <= 0) {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }
    return exp(lo / 2.0);
}

Glicko2 glicko2_update(Glicko2 player, const Glicko2Game *games, int count, double tau)
{
    /* Step 2: to the Glicko-2 scale. */
    double mu = (player.rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE, phi = player.rd / GLICKO2_SCALE;
    if (count <= 0) {
        /* Step 6 alone: a period without games only adds uncertainty. */
        double grown = sqrt(phi * phi + player.volatility * player.volatility);
        return (Glicko2){ player.rating, grown * GLICKO2_SCALE, player.volatility };
    }
    /* Steps 3 and 4: the estimated variance v and improvement delta. */
    double inv_v = 0, sum = 0;
    for (int j = 0; j < count; j++) {
        double mu_j = (games[j].rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE, phi_j = games[j].rd / GLICKO2_SCALE;
        double g = weight(phi_j), e = expected(mu, mu_j, phi_j);
        inv_v += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1.0 / inv_v, delta = v * sum;
    /* Steps 5 to 8: volatility, pre-period RD, new RD and rating, back
     * to the Glicko scale. */
    double sigma = new_volatility(player.volatility, delta, phi, v, tau);
    double phi_star = sqrt(phi * phi + sigma * sigma);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    return (Glicko2){ GLICKO2_SCALE * mu_new + GLICKO2_INITIAL_RATING, GLICKO2_SCALE * phi_new, sigma };
}
