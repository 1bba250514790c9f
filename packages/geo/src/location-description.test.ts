import { describe, expect, it } from 'vitest';
import { destination, type LatLon } from './distance.ts';
import { COMPASS_POINTS, compassPoint, describeLocation, eldAscii, METRES_PER_MILE } from './location-description.ts';
import { nearestPlaceBruteForce } from './place-index.ts';
import { bundledPlaces } from './places.ts';

function place(name: string, code: string): LatLon {
  const p = bundledPlaces().find((x) => x.name === name && x.code === code);
  if (!p) throw new Error(`${name}, ${code} is not in the bundled list`);
  return p;
}

/** The point `miles` statute miles from a place along `bearing` degrees. */
function from(name: string, code: string, bearing: number, miles: number): LatLon {
  return destination(place(name, code), bearing, miles * METRES_PER_MILE);
}

function describeAt(p: LatLon, reduced = false) {
  return describeLocation(p.lat, p.lon, { reduced });
}

describe('compassPoint', () => {
  it('gives each of the 16 points a 22.5° sector centred on it, lower edge included', () => {
    COMPASS_POINTS.forEach((point, i) => {
      expect(compassPoint(i * 22.5)).toBe(point);
      expect(compassPoint(i * 22.5 - 11.25)).toBe(point);
      expect(compassPoint(i * 22.5 + 11.24)).toBe(point);
    });
    expect(compassPoint(0)).toBe('N');
    expect(compassPoint(11.25)).toBe('NNE');
    expect(compassPoint(348.74)).toBe('NNW');
    expect(compassPoint(348.75)).toBe('N');
    expect(compassPoint(359.99)).toBe('N');
    expect(compassPoint(360)).toBe('N');
    expect(compassPoint(-22.5)).toBe('NNW');
    expect(compassPoint(725)).toBe('N');
  });
});

describe('describeLocation', () => {
  it('says distance and direction from an isolated town: 3 mi NNE of Elko, NV', () => {
    expect(describeAt(from('Elko', 'NV', 22.5, 3))).toEqual({
      text: '3 mi NNE of Elko, NV',
      place: 'Elko, NV',
      distanceMi: 3,
      direction: 'NNE',
      eldText: '3mi NNE NV Elko',
    });
  });

  it('measures the direction from the place to the point, on all 16 points and either side of a sector edge', () => {
    COMPASS_POINTS.forEach((point, i) => {
      expect(describeAt(from('Thunder Bay', 'ON', i * 22.5, 10)).text).toBe(`10 mi ${point} of Thunder Bay, ON`);
    });
    expect(describeAt(from('Thunder Bay', 'ON', 11.0, 20)).direction).toBe('N');
    expect(describeAt(from('Thunder Bay', 'ON', 11.5, 20)).direction).toBe('NNE');
    expect(describeAt(from('Thunder Bay', 'ON', 348.5, 20)).direction).toBe('NNW');
    expect(describeAt(from('Thunder Bay', 'ON', 349, 20)).direction).toBe('N');
  });

  it('rounds the distance to the mile and names just the place within half a mile', () => {
    expect(describeAt(place('Thunder Bay', 'ON'))).toMatchObject({ text: 'Thunder Bay, ON', distanceMi: 0, direction: null, eldText: 'ON Thunder Bay' });
    expect(describeAt(from('Thunder Bay', 'ON', 90, 0.45)).text).toBe('Thunder Bay, ON');
    expect(describeAt(from('Thunder Bay', 'ON', 90, 0.55)).text).toBe('1 mi E of Thunder Bay, ON');
    expect(describeAt(from('Thunder Bay', 'ON', 180, 2.45)).text).toBe('2 mi S of Thunder Bay, ON');
    expect(describeAt(from('Thunder Bay', 'ON', 180, 2.55)).text).toBe('3 mi S of Thunder Bay, ON');
  });

  it('names the nearest place, not the biggest: 3 mi NNE of Joliet is 2 mi S of Lockport', () => {
    expect(describeAt(place('Joliet', 'IL')).text).toBe('Joliet, IL');
    expect(describeAt(from('Joliet', 'IL', 22.5, 3)).text).toBe('2 mi S of Lockport, IL');
    expect(describeAt(from('Joliet', 'IL', 202.5, 3)).text).toBe('3 mi SSW of Joliet, IL');
  });

  it('on the Detroit River border names the nearer city, whichever country it is in', () => {
    expect(describeAt(from('Detroit', 'MI', 315, 1)).text).toBe('1 mi NW of Detroit, MI');
    expect(describeAt(from('Windsor', 'ON', 135, 1)).text).toBe('1 mi SE of Windsor, ON');
    expect(describeAt({ lat: 42.28, lon: -83.0 }).text).toBe('2 mi SSE of Windsor, ON');
    // The Windsor end of the Ambassador Bridge is 2.3 mi from Detroit's point and 2.7 mi from
    // Windsor's: distance decides, as on any ELD; jurisdictionAt() is what tells the province.
    expect(describeAt({ lat: 42.304, lon: -83.07 }).text).toBe('2 mi SSW of Detroit, MI');
  });

  it('works in Alaska, Hawaii and the territories', () => {
    expect(describeAt(from('Juneau', 'AK', 90, 5)).text).toBe('5 mi E of Juneau, AK');
    expect(describeAt(from('Hilo', 'HI', 270, 4)).text).toBe('4 mi W of Hilo, HI');
    expect(describeAt(from('Whitehorse', 'YT', 315, 40)).text).toBe('40 mi NW of Whitehorse, YT');
    expect(describeAt(from('Iqaluit', 'NU', 0, 100)).text).toBe('100 mi N of Iqaluit, NU');
  });

  it('still answers far out at sea, with the nearest place however far', () => {
    const atSea = describeAt({ lat: 30, lon: -140 });
    const nearest = nearestPlaceBruteForce(bundledPlaces(), 30, -140);
    expect(atSea.place).toBe(`${nearest.place.name}, ${nearest.place.code}`);
    expect(atSea.distanceMi).toBeGreaterThan(1000);
    expect(atSea.text).toMatch(/^\d+ mi [NESW]{1,3} of .+, CA$/);
  });

  it('accepts a longitude written past ±180° and refuses a position that is not one', () => {
    expect(describeLocation(41.5252, -88.0834 + 360).text).toBe('Joliet, IL');
    expect(() => describeLocation(Number.NaN, -88)).toThrow(RangeError);
    expect(() => describeLocation(41.5, Number.POSITIVE_INFINITY, { reduced: true })).toThrow(RangeError);
    expect(() => describeLocation(-91, 0)).toThrow(RangeError);
  });

  it('writes the ELD file form in ASCII', () => {
    expect(describeAt(place('Cañon City', 'CO'))).toMatchObject({ text: 'Cañon City, CO', eldText: 'CO Canon City' });
    expect(describeAt(place("'Aiea", 'HI'))).toMatchObject({ text: "'Aiea, HI", eldText: "HI 'Aiea" });
    expect(eldAscii('3mi N HI Kīhei')).toBe('3mi N HI Kihei');
    expect(eldAscii(`12mi N QC ${'Sainte-Catherine-de-la-Jacques-Cartier'.repeat(2)}`)).toHaveLength(60);
    expect(eldAscii('A, B')).toBe('A; B');
  });
});

describe('describeLocation with reduced precision (personal conveyance)', () => {
  it('rounds to 10 miles from the position snapped to 0.1°', () => {
    expect(describeAt(from('Whitehorse', 'YT', 315, 40), true).text).toBe('40 mi NW of Whitehorse, YT');
    expect(describeAt(from('Thunder Bay', 'ON', 0, 3), true)).toMatchObject({ text: 'Thunder Bay, ON', distanceMi: 0, direction: null });
    // 3 mi NNE of Elko snaps to (40.9, -115.7), 5.7 mi NE of Elko: the snapped point is what is described.
    expect(describeAt(from('Elko', 'NV', 22.5, 3), true).text).toBe('10 mi NE of Elko, NV');
  });

  it('says the same for every position in one 0.1° cell, and stays within 10 miles of the truth', () => {
    const a = describeLocation(41.61, -88.07, { reduced: true });
    expect(describeLocation(41.64, -88.12, { reduced: true })).toEqual(a);
    expect(describeLocation(41.6, -88.1, { reduced: true })).toEqual(a);
    const places = bundledPlaces();
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 500; i++) {
      const lat = 30 + rnd() * 18;
      const lon = -120 + rnd() * 45;
      const d = describeLocation(lat, lon, { reduced: true });
      expect(d.distanceMi % 10).toBe(0);
      const exact = nearestPlaceBruteForce(places, lat, lon);
      if (d.place === `${exact.place.name}, ${exact.place.code}`) {
        expect(Math.abs(d.distanceMi - exact.distanceM / METRES_PER_MILE), `${lat}, ${lon}`).toBeLessThanOrEqual(10);
      }
    }
  });
});
