import { describe, expect, it } from 'vitest';
import { institutionKey, sameInstitution } from './names';

describe('sameInstitution', () => {
  it('sets case, spacing, punctuation, accents and a leading "The" aside', () => {
    expect(sameInstitution('Northfield University', '  northfield   UNIVERSITY ')).toBe(true);
    expect(sameInstitution('Université de Montréal', 'Universite de Montreal')).toBe(true);
    expect(sameInstitution('St. Mary’s College', "st marys college")).toBe(true);
    expect(sameInstitution("King's College", 'Kings College')).toBe(true);
    expect(sameInstitution('Arts & Crafts Institute', 'Arts and Crafts Institute')).toBe(true);
    expect(sameInstitution('The University of Leeds', 'University of Leeds')).toBe(true);
    expect(sameInstitution('University of Leeds', 'the university of leeds')).toBe(true);
  });

  it('tells different institutions apart', () => {
    expect(sameInstitution('Northfield University', 'Southgate College')).toBe(false);
    expect(sameInstitution('Northfield College', 'Northfield University')).toBe(false);
    expect(sameInstitution('University of the Arts', 'University of Arts')).toBe(false); // only a leading "The" goes
    expect(sameInstitution('Theology College', 'ology College')).toBe(false);
    expect(sameInstitution('', '')).toBe(false);
    expect(sameInstitution('—', '...')).toBe(false);
    expect(institutionKey('The')).toBe('the');
  });
});
