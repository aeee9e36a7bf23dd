import type { ModelRegion } from '../../config.js';
import { ProviderError } from './contract.js';

// The model regions (OPENAI_REGIONS) as every OpenAI provider uses them: one client (or whatever
// the provider makes of a base URL) per region, made when first asked for. A request names the
// region of its user's organisation; none is OPENAI_BASE_URL.

/**
 * What `make` built for the base URL of `region`: OPENAI_BASE_URL's when the region is null or
 * absent. A region not configured (removed from OPENAI_REGIONS since an organisation chose it) is
 * refused with a ProviderError rather than sent to another base URL.
 */
export function perRegion<T>(
  options: { baseUrl?: string; regions?: ModelRegion[] },
  make: (baseUrl: string | undefined) => T,
): (region: string | null | undefined) => T {
  const fallback = make(options.baseUrl);
  const made = new Map<string, T>();
  return (region) => {
    if (!region) return fallback;
    const known = made.get(region);
    if (known !== undefined) return known;
    const entry = options.regions?.find((r) => r.name === region);
    if (!entry) throw new ProviderError(`The model region ${region} is not configured on this server`, { retryable: false });
    const value = make(entry.baseUrl);
    made.set(region, value);
    return value;
  };
}
