import { describe, expect, it } from "vitest";
import { packageValueChange, priceInMinorUnits, type PackageTerms } from "./value-paths";

const on = (coins: number, price: number): PackageTerms => ({ coins, price, status: "active" });
const off = (coins: number, price: number): PackageTerms => ({ coins, price, status: "inactive" });

describe("packageValueChange", () => {
  const onSale = [on(100, 1), on(1000, 8)];

  it("names a free package, raised coins and a lowered price", () => {
    expect(packageValueChange(null, on(10, 0), onSale)).toBe("a free package");
    expect(packageValueChange(null, off(10, 0), onSale)).toBe("a free package");
    expect(packageValueChange(on(10, 1), on(11, 2), onSale)).toBe("coins raised from 10 to 11");
    expect(packageValueChange(on(10, 1), on(10, 0.99), onSale)).toBe("price lowered from 1 to 0.99");
  });

  it("compares a package going on sale with the best rate on sale, exactly", () => {
    // 1000 for 8 is 125 a unit: 126 for 1 beats it, 125 for 1 does not.
    expect(packageValueChange(null, on(126, 1), onSale)).toBe("more coins per unit of money than any package on sale");
    expect(packageValueChange(null, on(125, 1), onSale)).toBeNull();
    expect(packageValueChange(off(126, 1), on(126, 1), onSale)).toBe("more coins per unit of money than any package on sale");
    expect(packageValueChange(null, off(126, 1), onSale)).toBeNull();
    expect(packageValueChange(null, on(5, 1), [])).toBe("the first paid package on sale");
    // Free and inactive packages set no rate.
    expect(packageValueChange(null, on(126, 1), [on(1_000_000, 0), off(1_000_000, 1)])).toBe("the first paid package on sale");
  });

  it("leaves ordinary changes alone", () => {
    expect(packageValueChange(on(100, 1), on(90, 1), onSale)).toBeNull();
    expect(packageValueChange(on(100, 1), on(100, 2), onSale)).toBeNull();
    expect(packageValueChange(on(100, 1), off(100, 1), onSale)).toBeNull();
    expect(packageValueChange(null, on(0, 0), onSale)).toBeNull();
    expect(packageValueChange(on(0, 5), on(0, 1), onSale)).toBeNull();
  });
});

describe("priceInMinorUnits", () => {
  it("counts whole cents and refuses fractions of one, never rounding", () => {
    expect(priceInMinorUnits(2.3)).toBe(230);
    expect(priceInMinorUnits(0.01)).toBe(1);
    expect(priceInMinorUnits(0.004)).toBeNull();
    expect(priceInMinorUnits(2.499)).toBeNull();
    expect(priceInMinorUnits(10_000)).toBe(1_000_000);
  });
});
