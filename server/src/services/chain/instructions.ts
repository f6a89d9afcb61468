export * from '../../../../shared/program/instructions';
